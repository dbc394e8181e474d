// `/ip/{address}`, `/coordinates/{point}` and timeapi.io's queries remember where a parameter is
// (server/http/caching/memos.ts). A repeated parameter must answer exactly what it
// answers when nothing is remembered: each answer below is compared with a service over
// the same tables whose memory never recalls anything, at a fixed instant, for every
// spelling, format and profile, repeated; a refused parameter stays refused.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Instant } from "../../server/core/clock.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import type { AppState } from "../../server/http/contract.ts";
import { Memo } from "../../server/http/caching/memo.ts";
import { loadData } from "../../server/process/load-data.ts";
import { testConfig, testDataDir } from "../support/test-server.ts";

const now: Instant = { seconds: Date.UTC(2026, 2, 8, 7) / 1000, micros: 123_456 };
let remembering: AppState;
let handle: (req: Request) => Response;
let reference: (req: Request) => Response;

/** A memory that never recalls: every request runs the whole lookup. */
class Forgetful<T> extends Memo<T> {
  constructor() {
    super("forgetful", { maxEntries: 1, maxKeyLength: 0, maxBytes: 0 });
  }
  override get(): T | undefined {
    return undefined;
  }
}

beforeAll(async () => {
  const tables = await loadData(await testDataDir());
  const config = await testConfig();
  remembering = createAppState(tables, () => now, config);
  const forgetful = createAppState(tables, () => now, config);
  forgetful.data.memos.addresses = new Forgetful();
  forgetful.data.memos.points = new Forgetful();
  forgetful.data.memos.timeapiZones = new Forgetful();
  forgetful.data.memos.clockLists = new Forgetful();
  const a = createFetchHandler(remembering);
  const b = createFetchHandler(forgetful);
  handle = (req) => a(req, null) as Response;
  reference = (req) => b(req, null) as Response;
}, 120_000);

const ADDRESSES = [
  "8.8.8.8", "%38.8.8.8", "1.1.1.1", "81.2.69.160", "133.242.0.3", "200.160.2.3", "203.0.113.1", "127.0.0.1",
  "2001:4860:4860::8888", "2001:4860:4860:0:0:0:0:8888", "2001:4860:4860::8888".toUpperCase(), "2001%3A4860%3A4860%3A%3A8888",
  "::ffff:8.8.8.8", "2a00:1450:4001:80b::200e", "not-an-address", "1.2.3", "%zz", "::1",
];
const POINTS = ["51.5074,-0.1278", "51.5074,-0.12780", "%35%31.5074,-0.1278", "38.7503,85.9829", "0,-30", "-33.87,151.21", "91,0", "1,2,3", "a,b", "%zz"];
const FORMS = (path: string) => [path, `${path}.txt`, `/api${path}`, `/api${path}.txt`, `${path}?lang=de`];

async function seen(answer: Response) {
  return { status: answer.status, others: answer.headers.get("x-other-timezones"), type: answer.headers.get("content-type"), body: await answer.text() };
}

describe("a remembered parameter answers what a full lookup answers", () => {
  test("every address and point, each form and profile, three times over", async () => {
    for (const path of [...ADDRESSES.map((a) => `/ip/${a}`), ...POINTS.map((p) => `/coordinates/${p}`)]) {
      for (const form of FORMS(path)) {
        for (let repeat = 0; repeat < 3; repeat++) {
          const url = `http://located.example${form}`;
          expect({ form, ...(await seen(handle(new Request(url)))) }).toEqual({ form, ...(await seen(reference(new Request(url)))) });
        }
      }
    }
  });

  test("the normalised client_ip and the other zones survive being remembered", async () => {
    for (let repeat = 0; repeat < 2; repeat++) {
      const v6 = (await handle(new Request("http://located.example/ip/2001:4860:4860:0:0:0:0:8888")).json()) as { client_ip: string };
      expect(v6.client_ip).toBe("2001:4860:4860::8888");
      const disputed = handle(new Request("http://located.example/coordinates/38.7503,85.9829"));
      expect(disputed.headers.get("x-other-timezones")).toBe("Asia/Shanghai");
    }
  });

  test("timeapi.io's queries, legacy and v1, by zone, point and address", async () => {
    const queries = [
      "/api/Time/current/zone?timeZone=Europe/London", "/api/time/current/zone?timezone=europe/london", "/api/TimeZone/zone?timeZone=America/New_York",
      "/api/Time/current/coordinate?latitude=38.7503&longitude=85.9829", "/api/TimeZone/ip?ipAddress=8.8.8.8", "/api/v1/time/current/zone?timezone=Asia/Kolkata",
      "/api/v1/timezone/coordinate?latitude=-33.87&longitude=151.21", "/api/v1/time/current/ip?ipAddress=2001:4860:4860::8888",
      "/api/Time/current/zone?timeZone=Nowhere/City", "/api/v1/time/current/zone?timezone=", "/api/TimeZone/ip?ipAddress=1.2.3",
    ];
    for (const query of queries) {
      for (let repeat = 0; repeat < 3; repeat++) {
        const url = `http://timeapi.example${query}`;
        expect({ query, ...(await seen(handle(new Request(url)))) }).toEqual({ query, ...(await seen(reference(new Request(url)))) });
      }
    }
    expect(remembering.data.memos.timeapiZones.size).toBe(8);
  });

  test("/clock's lists of names, with and without an instant, and its refusals", async () => {
    const queries = [
      "/clock?zones=Europe/London,Asia/Tokyo,America/New_York", "/clock?zones=europe/london,EUROPE/LONDON", "/api/clock.txt?zones=Asia/Kolkata,UTC",
      "/clock?zones=Europe/London&at=2026-03-29T01:00:00Z", "/clock?at=2026-03-29T00:59:59Z&zones=Europe/London",
      "/clock?zones=Europe/London,Nowhere/City", "/clock?zones=", "/clock?zones=UTC,,UTC", `/clock?zones=${Array(101).fill("UTC").join(",")}`,
    ];
    for (const query of queries) {
      for (let repeat = 0; repeat < 3; repeat++) {
        const url = `http://clock.example${query}`;
        expect({ query, ...(await seen(handle(new Request(url)))) }).toEqual({ query, ...(await seen(reference(new Request(url)))) });
      }
    }
    expect(remembering.data.memos.clockLists.size).toBe(5);
  });

  test("found parameters are remembered; refused ones are not", () => {
    const before = { addresses: remembering.data.memos.addresses.size, points: remembering.data.memos.points.size };
    for (const path of ["/ip/not-an-address", "/ip/1.2.3", "/coordinates/91,0", "/coordinates/a,b"]) {
      for (let repeat = 0; repeat < 3; repeat++) expect(handle(new Request(`http://refused.example${path}`)).status).toBe(400);
    }
    expect({ addresses: remembering.data.memos.addresses.size, points: remembering.data.memos.points.size }).toEqual(before);
    expect(before.addresses).toBeGreaterThan(0);
    expect(before.points).toBeGreaterThan(0);
  });
});
