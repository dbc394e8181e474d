// The time machine over HTTP, on the real server: GET /tzdb, `?tzdb=RELEASE` answers as
// the machine's zic + zdump -v read that release's committed source, /changes against a
// brute-force diff of two releases' zdump -v output, and every bad input in the one error
// shape naming its parameter.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatOffset } from "../../server/core/time-format.ts";
import { parseIndex } from "../../scripts/tzdb/history/release-store.ts";
import { REPO_TZDB_DIR } from "../support/history-table.ts";
import { bruteWindows, iso, state, storedReleases, verboseHistories, zicRelease } from "../support/release-reference.ts";
import { startTestServer } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 600_000);
afterAll(() => server?.stop());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${server.url}${path}`, { headers });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: text.startsWith("{") ? JSON.parse(text) : null };
};

describe("GET /tzdb", () => {
  test("every release of data/tzdb-releases, the default (data/tzdb's) first, the gaps listed", async () => {
    const index = parseIndex(readFileSync(join(REPO_TZDB_DIR, "..", "tzdb-releases", "releases.tsv"), "utf8"));
    const { status, body, headers } = await get("/tzdb");
    expect(status).toBe(200);
    expect(body.default).toBe(sourceRelease());
    expect(body.releases[0].release).toBe(sourceRelease());
    expect(body.releases.map((r: { release: string }) => r.release)).toEqual(index.map((r) => r.release));
    expect(body.releases.length).toBeGreaterThanOrEqual(88);
    // IANA published 2026d and 2026e; no source for them is at hand.
    expect(body.gaps).toEqual(expect.arrayContaining(["2026d", "2026e"]));
    const r2026b = body.releases.find((r: { release: string }) => r.release === "2026b");
    expect(r2026b).toEqual({ release: "2026b", date: "2026-04-22", names: expect.any(Number), summary: "British Columbia moved to permanent -07 on 2026-03-09.", changes: "/tzdb/2026b/changes" });
    const again = await get("/tzdb", { "If-None-Match": headers.get("etag")! });
    expect(again.status).toBe(304);
  });
});

describe("?tzdb=RELEASE answers as that release, checked against zic + zdump -v", () => {
  // Zones whose rules changed often or lately, in releases far apart.
  const CASES: [string, string[]][] = [
    ["2003a", ["America/New_York", "Asia/Jerusalem", "America/Sao_Paulo"]],
    ["2012e", ["America/Havana", "Europe/Moscow", "Asia/Gaza"]],
    ["2019c", ["America/Sao_Paulo", "Africa/Casablanca", "Europe/Dublin"]],
    ["2025c", ["America/Vancouver", "America/Havana", "America/Edmonton"]],
  ];
  test.each(CASES)("%s: time objects one second before and at every change 2010-2030, and transitions", async (release, names) => {
    const { histories, changes } = await verboseHistories(zicRelease(release), names, 2010, 2031);
    let checked = 0;
    for (const name of names) {
      for (const change of changes.get(name)!) {
        for (const [t, expected] of [[change.at - 1, change.before], [change.at, change.after]] as const) {
          const { status, body, headers } = await get(`/timezone/${name}?tzdb=${release}&at=${t}`);
          expect({ name, t, status, tzdb: headers.get("x-tzdb-version") }).toEqual({ name, t, status: 200, tzdb: release });
          expect({ name, t, utc_offset: body.utc_offset, abbreviation: body.abbreviation, dst: body.dst })
            .toEqual({ name, t, utc_offset: formatOffset(expected.utoff), abbreviation: expected.abbr, dst: expected.isdst });
          checked++;
        }
      }
      const { body, headers } = await get(`/timezone/${name}/transitions?tzdb=${release}&from=2010-01-01T00:00:00Z&to=2031-01-01T00:00:00Z`);
      expect(headers.get("x-tzdb-version")).toBe(release);
      const history = histories.get(name)!;
      expect({ name, transitions: body.transitions.map((t: any) => ({ at: t.at, ...{ utc_offset: t.utc_offset, abbreviation: t.abbreviation, dst: t.dst } })) })
        .toEqual({ name, transitions: history.transitions.map((t) => ({ at: iso(t.at), ...state(t.state) })) });
    }
    expect(checked).toBeGreaterThan(20);
  }, 120_000);

  test("the default release without ?tzdb= differs from 2025c where 2026b changed British Columbia", async () => {
    const old = await get("/timezone/America/Vancouver?tzdb=2025c&at=2026-12-01T00:00:00Z");
    const now = await get("/timezone/America/Vancouver?at=2026-12-01T00:00:00Z");
    expect([old.body.abbreviation, now.body.abbreviation]).toEqual(["PST", "MST"]);
    expect(now.headers.get("x-tzdb-version")).toBe(sourceRelease());
    // ETags differ by release: one release's ETag never revalidates another's answer.
    const a = await get("/timezone/America/Vancouver/transitions?tzdb=2025c&from=2026-01-01T00:00:00Z");
    const b = await get("/timezone/America/Vancouver/transitions?from=2026-01-01T00:00:00Z", { "If-None-Match": a.headers.get("etag")! });
    expect(b.status).toBe(200);
    expect((await get("/timezone/America/Vancouver/transitions?tzdb=2025c&from=2026-01-01T00:00:00Z", { "If-None-Match": a.headers.get("etag")! })).status).toBe(304);
  });
});

describe("/changes against a brute-force diff of zdump -v output, 1800-2100", () => {
  const LO = Date.UTC(1800, 0, 1) / 1000;
  const HI = Date.UTC(2101, 0, 1) / 1000;
  // The newest consecutive pairs: names whose TZif bytes differ are diffed, the others must be absent.
  const PAIRS = storedReleases().slice(0, 4).map((r, i, all) => [all[i + 1]?.release, r.release]).filter((p): p is [string, string] => p[0] !== undefined);
  test.each(PAIRS)("%s -> %s: /tzdb/{release}/changes and /timezone/{name}/changes", async (since, release) => {
    const { body } = await get(`/tzdb/${release}/changes?since=${since}`);
    expect(body.release).toBe(release);
    const [dirA, dirB] = [zicRelease(since), zicRelease(release)];
    const listA: string[] = JSON.parse((await get(`/timezone?tzdb=${since}`)).text);
    const listB: string[] = JSON.parse((await get(`/timezone?tzdb=${release}`)).text);
    expect(body.added).toEqual(listB.filter((n) => !listA.includes(n)));
    expect(body.removed).toEqual(listA.filter((n) => !listB.includes(n)));
    const differing = listB.filter((n) => listA.includes(n) &&
      !readFileSync(join(dirA, n)).equals(readFileSync(join(dirB, n))));
    const [ha, hb] = [await verboseHistories(dirA, differing, 1800, 2101), await verboseHistories(dirB, differing, 1800, 2101)];
    const expected = differing
      .map((name) => ({ timezone: name, windows: bruteWindows(ha.histories.get(name)!, hb.histories.get(name)!, LO, HI) }))
      .filter((e) => e.windows.length > 0);
    const byName = (x: { timezone: string }, y: { timezone: string }) => (x.timezone < y.timezone ? -1 : 1);
    expect(body.changed.map((c: any) => ({ timezone: c.timezone, windows: c.windows })).sort(byName)).toEqual(expected.sort(byName));
    expect(body.changed.length + body.added.length).toBeGreaterThan(0);
    // The per-name route gives the same windows.
    for (const e of expected.slice(0, 5)) {
      const one = await get(`/timezone/${e.timezone}/changes?from=${since}&to=${release}`);
      expect(one.body.windows).toEqual(e.windows);
    }
    // A name the two releases agree on: [].
    const same = listB.find((n) => listA.includes(n) && !differing.includes(n))!;
    expect((await get(`/timezone/${same}/changes?from=${since}&to=${release}`)).body.windows).toEqual([]);
  }, 300_000);
});

// docs/time-machine.md's example requests are curl lines: test/docs/code-blocks.test.ts runs each.

describe("bad input: a 4xx in the one error shape, naming the parameter", () => {
  const CASES: [string, number, RegExp][] = [
    ["/timezone/Europe/London?tzdb=2019x", 404, /unknown tzdb release 2019x in tzdb/],
    ["/timezone/Europe/London?tzdb=2026d", 404, /unknown tzdb release 2026d in tzdb .*no source/],
    ["/timezone/Europe/London?tzdb=latest", 400, /invalid tzdb/],
    // IANA's two-digit names of 1992-1996: releases we list as gaps (not pinned down), not
    // malformed; and served ones (96k, 95l, 93), not malformed either.
    ["/timezone/Europe/London?tzdb=96i", 404, /unknown tzdb release 96i in tzdb .*no source/],
    ["/timezone/Europe/London?tzdb=94d", 404, /unknown tzdb release 94d in tzdb .*no source/],
    ["/timezone/Europe/Kyiv?tzdb=95l", 404, /unknown location in tzdb 95l/],
    ["/timezone/Europe/Kyiv?tzdb=96k", 404, /unknown location in tzdb 96k/],
    ["/timezone/Europe/Kyiv?tzdb=93", 404, /unknown location in tzdb 93/],
    ["/timezone/America/North_Dakota/Beulah?tzdb=2005r", 404, /unknown location in tzdb 2005r/],
    ["/timezone/Europe/London?tzdb=", 400, /invalid tzdb/],
    ["/timezone/Europe/London/transitions?tzdb=1999f", 404, /unknown tzdb release 1999f in tzdb/],
    ["/timezone/Europe/Kyiv?tzdb=2012e", 404, /unknown location in tzdb 2012e/],
    ["/timezone/Europe/Kyiv/transitions?tzdb=2012e", 404, /unknown location in tzdb 2012e/],
    ["/timezone/Europe/Kyiv/changes?from=2012e&to=2026c", 404, /unknown location in tzdb 2012e/],
    ["/timezone/Europe/London/changes?from=2026c&to=2025c", 400, /invalid from: 2026c is after to/],
    ["/timezone/Europe/London/changes?from=2026q", 404, /unknown tzdb release 2026q in from/],
    ["/timezone/Europe/London/changes?to=x", 400, /invalid to/],
    ["/timezone/Europe/London/changes?start=0000-12-31T00:00:00Z", 400, /start out of range/],
    ["/timezone/Europe/London/changes?end=10000-01-01T00:00:00Z", 400, /invalid end/],
    ["/timezone/Europe/London/changes?start=2030-01-01T00:00:00Z&end=2020-01-01T00:00:00Z", 400, /invalid end: must be after start/],
    ["/timezone/Nowhere/Place/changes", 404, /unknown location/],
    ["/tzdb/2031a/changes", 404, /unknown tzdb release 2031a in release/],
    ["/tzdb/nonsense/changes", 400, /invalid release/],
    ["/tzdb/2025c/changes?since=2026c", 400, /invalid since: 2026c is not a release before 2025c/],
    ["/tzdb/2025c/changes?since=2011a", 404, /unknown tzdb release 2011a in since/],
    ["/timezone/Nowhere/Place/feed.atom", 404, /unknown location/],
  ];
  test.each(CASES)("%s -> %d", async (path, status, message) => {
    const r = await get(path);
    expect({ path, status: r.status }).toEqual({ path, status });
    expect(Object.keys(r.body)).toEqual(["error"]);
    expect(r.body.error).toMatch(message);
  });
});
