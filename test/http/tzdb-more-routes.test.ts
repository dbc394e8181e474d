// `?tzdb=RELEASE` on the device routes, /clock, WorldTimeAPI's short form and the dialects'
// GET routes, on the real server, against that release's committed source compiled by the
// machine's zic (its TZif footer for device strings, zdump -v for clock readings); an
// unknown release is a 404 naming it (in the dialect's own error shape there).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { formatOffset } from "../../server/core/time-format.ts";
import { verboseHistories, zicRelease } from "../support/release-reference.ts";
import { startTestServer } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";
import { tzifFooter } from "../support/zdump-verbose.ts";
import { stateAt, yearStart, type ClockState, type ZoneHistory } from "../support/zic-reference.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 600_000);
afterAll(() => server?.stop());

const get = async (path: string) => {
  const r = await fetch(`${server.url}${path}`);
  const text = await r.text();
  return { status: r.status, tzdb: r.headers.get("x-tzdb-version"), text, body: text.startsWith("{") ? JSON.parse(text) : null };
};

/** zdump -v's histories of `names` in `release`, 2000-2040. */
async function histories(release: string, names: string[]): Promise<Map<string, ZoneHistory>> {
  return (await verboseHistories(zicRelease(release), names, 2000, 2041)).histories;
}
/** The instants to ask at: one second before and at each change 2024-2030, and mid-2035. */
function instants(history: ZoneHistory): number[] {
  const changes = history.transitions.map((t) => t.at).filter((t) => t >= yearStart(2024) && t < yearStart(2031));
  return [...changes.flatMap((t) => [t - 1, t]), yearStart(2035) + 180 * 86400];
}
const reading = (s: ClockState) => ({ utc_offset: formatOffset(s.utoff), abbreviation: s.abbr, dst: s.isdst });

// Zones a recent release changed (British Columbia in 2026b, Cuba, Moscow in 2014), in releases far apart.
const NAMES = ["America/Vancouver", "America/Havana", "Europe/Moscow"];
const RELEASES = ["2025c", "2019c", "2012e"];

describe("device strings as the release's zic wrote them", () => {
  test.each(RELEASES)("%s: /timezone/{name}/device in the footer's years is the TZif footer; /device and .csv agree", async (release) => {
    const at = "2040-01-01T00:00:00Z";
    const list = await get(`/device?tzdb=${release}&at=${at}`);
    expect({ status: list.status, tzdb: list.tzdb, version: list.body.tzdb_version }).toEqual({ status: 200, tzdb: release, version: release });
    const csv = await get(`/device.csv?tzdb=${release}&at=${at}`);
    expect(csv.tzdb).toBe(release);
    for (const name of NAMES) {
      const one = await get(`/timezone/${name}/device?tzdb=${release}&at=${at}`);
      expect({ name, status: one.status, tzdb: one.tzdb, valid_until: one.body.valid_until }).toEqual({ name, status: 200, tzdb: release, valid_until: null });
      expect({ name, posix_tz: one.body.posix_tz }).toEqual({ name, posix_tz: tzifFooter(zicRelease(release), name) });
      expect(list.body.zones[name].posix_tz).toBe(one.body.posix_tz);
      expect(csv.text).toContain(`"${name}","${one.body.posix_tz}"\n`);
    }
    // The list holds the names that release had.
    const names: string[] = JSON.parse((await get(`/timezone?tzdb=${release}`)).text);
    expect(Object.keys(list.body.zones).sort()).toEqual([...names].sort());
  }, 300_000);

  test("the default release's string differs where 2026b changed British Columbia", async () => {
    const at = "2027-01-01T00:00:00Z";
    const [old, now] = [await get(`/timezone/America/Vancouver/device?tzdb=2025c&at=${at}`), await get(`/timezone/America/Vancouver/device?at=${at}`)];
    expect(old.body.posix_tz).toBe(tzifFooter(zicRelease("2025c"), "America/Vancouver"));
    expect(now.body.posix_tz).toBe(tzifFooter(zicRelease(sourceRelease()), "America/Vancouver"));
    expect(now.body.posix_tz).not.toBe(old.body.posix_tz);
  }, 120_000);
});

describe("clock readings as the release's zdump gives them", () => {
  test.each(RELEASES)("%s: /clock, WorldTimeAPI's /api/{name} and the dialects, one second before and at each change", async (release) => {
    const byName = await histories(release, NAMES);
    let checked = 0;
    for (const name of NAMES) {
      for (const t of instants(byName.get(name)!)) {
        const expected = reading(stateAt(byName.get(name)!, t).state);
        const clock = await get(`/clock?zones=${name},UTC&tzdb=${release}&at=${t}`);
        expect({ name, t, status: clock.status, tzdb: clock.tzdb }).toEqual({ name, t, status: 200, tzdb: release });
        const zone = JSON.parse(clock.text)[0];
        expect({ name, t, utc_offset: zone.utc_offset, abbreviation: zone.abbreviation, dst: zone.dst }).toEqual({ name, t, ...expected });
        const wta = await get(`/api/${name}?tzdb=${release}&at=${t}`);
        expect({ name, t, tzdb: wta.tzdb, utc_offset: wta.body.utc_offset, abbreviation: wta.body.abbreviation, dst: wta.body.dst }).toEqual({ name, t, tzdb: release, ...expected });
        const tzdb = await get(`/v2.1/get-time-zone?key=k&format=json&by=zone&zone=${name}&time=${t}&tzdb=${release}`);
        expect({ name, t, tzdb: tzdb.tzdb, gmtOffset: tzdb.body.gmtOffset, abbreviation: tzdb.body.abbreviation, dst: tzdb.body.dst })
          .toEqual({ name, t, tzdb: release, gmtOffset: stateAt(byName.get(name)!, t).state.utoff, abbreviation: expected.abbreviation, dst: expected.dst ? "1" : "0" });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  }, 300_000);

  test("Google's and timeapi.io's answers for a point and a name in 2025c and the default: British Columbia", async () => {
    const t = Date.UTC(2026, 11, 1) / 1000;
    for (const release of ["2025c", sourceRelease()]) {
      const expected = stateAt((await histories(release, ["America/Vancouver"])).get("America/Vancouver")!, t).state;
      const google = await get(`/maps/api/timezone/json?location=49.28,-123.12&timestamp=${t}&key=k&tzdb=${release}`);
      expect({ release, tzdb: google.tzdb, zone: google.body.timeZoneId, offset: google.body.rawOffset + google.body.dstOffset })
        .toEqual({ release, tzdb: release, zone: "America/Vancouver", offset: expected.utoff });
      // timeapi.io answers about now: the readings before and after the request bound it.
      const history = (await histories(release, ["America/Vancouver"])).get("America/Vancouver")!;
      const before = stateAt(history, Math.floor(Date.now() / 1000)).state.utoff;
      const timeapi = await get(`/api/TimeZone/zone?timeZone=America/Vancouver&tzdb=${release}`);
      const after = stateAt(history, Math.floor(Date.now() / 1000)).state.utoff;
      expect(timeapi.tzdb).toBe(release);
      expect([before, after]).toContain(timeapi.body.currentUtcOffset.seconds);
    }
  }, 120_000);

  test("a name the release did not have: /clock is a 404 naming the release", async () => {
    const r = await get("/clock?zones=America/Vancouver,Europe/Kyiv&tzdb=2012e");
    expect({ status: r.status, body: r.body }).toEqual({ status: 404, body: { error: "unknown location in tzdb 2012e" } });
  });
});

describe("an unknown release: a 404 naming it, in each route's own error shape", () => {
  test.each([
    ["/timezone/Europe/London/device?tzdb=2019x"],
    ["/device?tzdb=2019x"],
    ["/device.csv?tzdb=2019x"],
    ["/clock?zones=Europe/London&tzdb=2019x"],
    ["/api/Europe/London?tzdb=2019x"],
  ])("%s: the service's shape", async (path) => {
    const r = await get(path);
    expect({ status: r.status, keys: Object.keys(r.body) }).toEqual({ status: 404, keys: ["error"] });
    expect(r.body.error).toMatch(/^unknown tzdb release 2019x in tzdb/);
  });
  test("TimeZoneDB, Google and timeapi.io: their own shapes, the release named", async () => {
    const tzdb = await get("/v2.1/get-time-zone?key=k&format=json&by=zone&zone=Europe/London&tzdb=2019x");
    expect(tzdb.body).toEqual({ status: "FAILED", message: expect.stringMatching(/unknown tzdb release 2019x in tzdb/) });
    const google = await get("/maps/api/timezone/json?location=51.5,-0.12&timestamp=1800000000&key=k&tzdb=2019x");
    expect(google.body).toEqual({ status: "INVALID_REQUEST", errorMessage: expect.stringMatching(/unknown tzdb release 2019x in tzdb/) });
    const timeapi = await get("/api/Time/current/zone?timeZone=Europe/London&tzdb=2019x");
    expect({ status: timeapi.status, text: timeapi.text }).toEqual({ status: 404, text: expect.stringMatching(/^unknown tzdb release 2019x in tzdb/) });
  });
});
