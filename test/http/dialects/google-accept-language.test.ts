// Google's timeZoneName without `language`: Accept-Language as RFC 9110 reads it. Quality
// values rank the languages (ties in the order sent), q=0 means "not acceptable", and the
// most preferred language CLDR has names the zone ("the closest match"). The names expected
// are our own spec route's (`/coordinates?lang=`), whose equality with ICU is tested elsewhere.

import { beforeAll, describe, expect, test } from "bun:test";
import { testHandler } from "../../support/test-server.ts";

let handler: (req: Request) => Response;
beforeAll(async () => {
  handler = await testHandler();
}, 120_000);

const POINT = "48.8566,2.3522";
const AT = 1751234567;

async function googleName(acceptLanguage: string, host = "google.test"): Promise<string> {
  const res = handler(new Request(`http://${host}/maps/api/timezone/json?location=${POINT}&timestamp=${AT}&key=k`, { headers: { "Accept-Language": acceptLanguage } }));
  return ((await res.json()) as { timeZoneName: string }).timeZoneName;
}

async function nameIn(lang: string): Promise<string> {
  const res = handler(new Request(`http://spec.test/coordinates/${POINT}?at=${AT}&lang=${lang}`));
  return ((await res.json()) as { timezone_name: string }).timezone_name;
}

describe("Google Time Zone: Accept-Language with quality values", () => {
  test("the most preferred acceptable language names the zone", async () => {
    const [de, fr, es, en] = [await nameIn("de"), await nameIn("fr"), await nameIn("es"), await nameIn("en")];
    expect(new Set([de, fr, es, en]).size).toBe(4);
    const cases: [string, string][] = [
      ["de;q=0, fr", fr], // q=0: German is not acceptable
      ["fr;q=0.5, de;q=0.9", de], // the higher q first
      ["es, de", es], // equal q: the order sent
      ["de;q=0.8, fr;q=0.8, es;q=0.1", de],
      ["de;q=0", en], // nothing acceptable: English
      ["*;q=0.5, es;q=0.4", es], // `*` names no language
      ["xx, fr", fr], // a language CLDR lacks: the next one
      ["de;q=2, fr", fr], // a malformed q (over 1): that entry is ignored
      ["de;q=0.1234, fr;q=0.5", fr], // more than three decimals: malformed
      ["DE;Q=1.000, fr", de],
    ];
    for (const [header, want] of cases) expect({ header, name: await googleName(header) }).toEqual({ header, name: want });
  });

  test("an answer kept for one header is not given to another that ranks languages differently", async () => {
    const [de, fr] = [await nameIn("de"), await nameIn("fr")];
    // One host, one URL: the second request may only be answered from the kept first one if it asks the same.
    expect(await googleName("de;q=0, fr", "kept.test")).toBe(fr);
    expect(await googleName("fr;q=0, de", "kept.test")).toBe(de);
    expect(await googleName("de, fr", "kept.test")).toBe(de);
    expect(await googleName("de;q=0.1, fr", "kept.test")).toBe(fr);
  });
});
