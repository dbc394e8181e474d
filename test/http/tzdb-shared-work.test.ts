// What every tzdb release costs a worker once any client has asked for it. A client can
// name every release in turn (`?tzdb=` on a device list, `/tzdb/{release}/changes?since=`
// any older one): the work and the memory that follow must stay bounded by the data, not
// grow with what clients ask.
//
// - Release tables share one table of every stored version (tz/tzdb-history.ts): the
//   device strings' footer checks (a 400-year walk per zone) are made once per version,
//   not once per release. Before, a device list per release cost 240 ms each (33 s for 138).
// - What changed between two releases is kept in a bounded Memo (release_changes), not a
//   map per pair: a far pair keeps up to 2.4 MB, and there are 138 x 137 / 2 pairs.

import { beforeAll, describe, expect, test } from "bun:test";
import { testDataDir, testAnsweringHandler } from "../support/test-server.ts";
import { loadData } from "../../server/process/load-data.ts";
import { deviceStringsOf } from "../../server/device/device-tz.ts";

let handle: (req: Request) => Response | Promise<Response>;
beforeAll(async () => {
  handle = await testAnsweringHandler();
}, 120_000);

const metric = async (series: string, memo: string) => {
  const text = await (await handle(new Request("http://h/metrics"))).text();
  return Number(new RegExp(`^${series}\\{memo="${memo}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
};

describe("every release shares one set of per-zone work", () => {
  test("two releases' tables have one DeviceStrings, and it is not the default table's", async () => {
    const { history, zones } = await loadData(await testDataDir());
    const a = history.table("2019c")!;
    const b = history.table("2012e")!;
    expect(a).not.toBe(b);
    expect(a.names).not.toEqual(b.names); // each release still has its own names
    expect(deviceStringsOf(a)).toBe(deviceStringsOf(b));
    expect(deviceStringsOf(a)).not.toBe(deviceStringsOf(zones));
  });

  test("a shared version answers as each release's own table would: device strings in two releases", async () => {
    // America/Vancouver: the same rules in 2019c and 2012e (Pacific time with US rules), a
    // new version in 2026f (British Columbia stays on -07).
    const at = "2027-01-15T00:00:00Z";
    const tz = async (release: string) => {
      const r = await handle(new Request(`http://h/timezone/America/Vancouver/device?tzdb=${release}&at=${at}`));
      expect(r.status).toBe(200);
      return ((await r.json()) as { posix_tz: string }).posix_tz;
    };
    expect(await tz("2019c")).toBe("PST8PDT,M3.2.0,M11.1.0");
    expect(await tz("2012e")).toBe("PST8PDT,M3.2.0,M11.1.0");
    expect(await tz("2026f")).not.toBe("PST8PDT,M3.2.0,M11.1.0");
  });
});

describe("what changed between two releases is kept within a budget", () => {
  test("far pairs asked one after another: release_changes stays within its 24 MB, in /metrics", async () => {
    const { history } = await loadData(await testDataDir());
    const releases = history.releases.map((r) => r.release);
    for (let i = 0; i < 12; i++) {
      const r = await handle(new Request(`http://h/tzdb/${releases[i]}/changes?since=${releases[releases.length - 1 - i]}`));
      expect(r.status).toBe(200);
    }
    const bytes = await metric("zonetime_memo_bytes", "release_changes");
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(24 * 2 ** 20);
    expect(await metric("zonetime_memo_evictions_total", "release_changes")).toBeGreaterThan(0);
  }, 60_000);
});
