// `?tzdb=` keeps what it derives in two Memo stores of the data load (pipeline/api-data.ts),
// both reported in /metrics: each release's data, made once and shared by every query
// naming it (tzdb_release_data), and each query's release and the query its handler reads
// (tzdb_release_queries). The handler reads the query without the `tzdb=` pair: the other
// parameters around it still count, wherever it sits.

import { beforeAll, describe, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 120_000);

const get = async (path: string) => {
  const r = handle(new Request(`http://h${path}`));
  return { status: r.status, tzdb: r.headers.get("x-tzdb-version"), body: await r.json() as Record<string, unknown> };
};
const metric = async (series: string, memo: string) => {
  const text = await handle(new Request("http://h/metrics")).text();
  return Number(new RegExp(`^${series}\\{memo="${memo}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
};

describe("?tzdb= memo stores", () => {
  test("a release's data is made once for every query naming it; each query kept once, then hit", async () => {
    const queries = ["/timezone/Europe/London?tzdb=2019c", "/timezone/Europe/London/transitions?tzdb=2019c&from=2019-01-01T00:00:00Z"];
    for (let i = 0; i < 3; i++) for (const q of queries) expect((await get(q)).tzdb).toBe("2019c");
    expect(await metric("zonetime_memo_entries", "tzdb_release_data")).toBe(1);
    expect(await metric("zonetime_memo_bytes", "tzdb_release_data")).toBeGreaterThan(0);
    expect(await metric("zonetime_memo_entries", "tzdb_release_queries")).toBe(2);
    expect(await metric("zonetime_memo_hits_total", "tzdb_release_queries")).toBeGreaterThanOrEqual(4);
    await get("/timezone/Europe/London?tzdb=2012e");
    expect(await metric("zonetime_memo_entries", "tzdb_release_data")).toBe(2);
  });

  test("a refused release is never kept: refused again each time", async () => {
    const before = await metric("zonetime_memo_entries", "tzdb_release_queries");
    expect(before).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 2; i++) expect((await get("/timezone/Europe/London?tzdb=2019x")).status).toBe(404);
    expect(await metric("zonetime_memo_entries", "tzdb_release_queries")).toBe(before);
  });
});

describe("the parameters beside tzdb= still count, wherever it sits", () => {
  // 2019-07-01T12:00:00Z: British Summer Time in London in any release.
  const AT = "2019-07-01T12:00:00Z";
  test.each([
    [`?tzdb=2019c&at=${AT}&lang=fr`],
    [`?at=${AT}&tzdb=2019c&lang=fr`],
    [`?at=${AT}&lang=fr&tzdb=2019c`],
  ])("/timezone/Europe/London%s", async (query) => {
    const { status, tzdb, body } = await get(`/timezone/Europe/London${query}`);
    expect({ status, tzdb }).toEqual({ status: 200, tzdb: "2019c" });
    expect({ utc_datetime: body.utc_datetime, abbreviation: body.abbreviation, timezone_name: body.timezone_name })
      .toEqual({ utc_datetime: "2019-07-01T12:00:00.000000Z", abbreviation: "BST", timezone_name: "heure d’été britannique" });
  });

  test("a release spelled with an escape is read too, and the same answer", async () => {
    const plain = await get(`/timezone/Europe/London?tzdb=2019c&at=${AT}`);
    const escaped = await get(`/timezone/Europe/London?tzdb=2019%63&at=${AT}`);
    expect(escaped).toEqual(plain);
  });

  test("the default release named answers as without it, its other parameters read", async () => {
    const named = await get(`/timezone/Europe/London?at=${AT}&tzdb=${sourceRelease()}&lang=de`);
    const bare = await get(`/timezone/Europe/London?at=${AT}&lang=de`);
    expect(named).toEqual(bare);
    expect(named.body.timezone_name).toBe("Britische Sommerzeit");
  });
});
