// /clock takes `?lang=` as every time object route does (issue 32): a tag ICU refuses, or a
// language CLDR lacks, is the same 400; a good one adds each object's timezone_name, the
// name /timezone/{name}?lang= gives for that instant.

import { beforeAll, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";

let handler: (req: Request) => Response;
beforeAll(async () => {
  handler = await testHandler();
}, 120_000);

const get = (path: string) => handler(new Request(`http://clock.test${path}`));

test("/clock refuses the lang every other route refuses", async () => {
  for (const lang of ["zz", "de-1996-1996", "en-a-bbb-a-ccc", "i-klingon"]) {
    const single = get(`/timezone/Europe/London?lang=${lang}`);
    const clock = get(`/clock?zones=Europe/London,Asia/Tokyo&lang=${lang}`);
    expect({ lang, status: clock.status, body: await clock.json() }).toEqual({ lang, status: single.status, body: await single.json() });
    expect(clock.status).toBe(400);
  }
});

test("/clock with lang: each object's timezone_name is /timezone's for the same instant", async () => {
  const at = 1751234567;
  for (const lang of ["de", "iw", "ar-EG-u-nu-latn"]) {
    const objects = (await get(`/clock?zones=Europe/London,Asia/Tokyo,America/New_York&at=${at}&lang=${lang}`).json()) as { timezone: string; timezone_name: string }[];
    expect(objects.length).toBe(3);
    for (const object of objects) {
      const single = (await get(`/timezone/${object.timezone}?at=${at}&lang=${lang}`).json()) as { timezone_name: string };
      expect({ lang, zone: object.timezone, name: object.timezone_name }).toEqual({ lang, zone: object.timezone, name: single.timezone_name });
    }
  }
  // Without lang, the objects are as before: no timezone_name.
  const plain = (await get(`/clock?zones=Europe/London&at=${at}`).json()) as Record<string, unknown>[];
  expect("timezone_name" in plain[0]!).toBe(false);
});
