// An older release's data (`?tzdb=`, pipeline/api-data.ts) has memo stores of its own, and
// there are 171 releases: a client naming each release in turn with queries chosen to fill
// its memos would grow a worker by every store's budget (35 MB) per release, 4.6 GB in all.
// Each release's memos get a sixteenth of each store's bounds, and at most 32 releases' data
// are kept at once (tzdb_release_data, by the most each may hold).

import { beforeAll, expect, test } from "bun:test";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { realtimeClock } from "../../server/core/clock.ts";
import { loadData } from "../../server/process/load-data.ts";
import { RELEASE_MEMO_SHARE } from "../../server/http/caching/memos.ts";
import { testConfig, testDataDir } from "../support/test-server.ts";
import type { AppState } from "../../server/http/contract.ts";
import type { Memo } from "../../server/http/caching/memo.ts";

let state: AppState;
let handle: (req: Request) => Response | Promise<Response>;
beforeAll(async () => {
  state = createAppState(await loadData(await testDataDir()), realtimeClock, await testConfig());
  const handler = createFetchHandler(state);
  handle = (req) => handler(req, null);
}, 120_000);

const stores = (memos: object) => Object.values(memos) as Memo<unknown>[];

test("a release's memo stores are a sixteenth of the default's, and the default's add up to the 35 MB its data is counted by", async () => {
  const r = await handle(new Request("http://h/timezone/Europe/London?tzdb=2019c"));
  expect(r.status).toBe(200);
  const release = state.data.releaseData.get("2019c")!;
  const [ours, theirs] = [stores(state.data.memos), stores(release.memos)];
  expect(theirs.map((m) => m.name)).toEqual(ours.map((m) => m.name));
  for (const [i, m] of theirs.entries()) expect(m.bounds.maxBytes).toBe(Math.floor(ours[i]!.bounds.maxBytes * RELEASE_MEMO_SHARE));
  expect(ours.reduce((sum, m) => sum + m.bounds.maxBytes, 0)).toBeLessThanOrEqual(35 * 2 ** 20);
});

test("world clocks of 400 different queries under one release keep what its share allows", async () => {
  const names = ["Europe/London", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "Europe/Paris", "America/Chicago", "Asia/Kolkata", "Africa/Cairo"];
  for (let n = 0; n < 400; n++) {
    const zones = Array.from({ length: 10 }, (_, i) => names[(n * 7 + i * (n % 5 + 1)) % names.length]).join(",");
    const r = await handle(new Request(`http://h/clock?zones=${zones}&tzdb=2019c&at=${1_500_000_000 + n}`));
    expect(r.status).toBe(200);
  }
  const clockLists = state.data.releaseData.get("2019c")!.memos.clockLists;
  expect(clockLists.stats().bytes).toBeGreaterThan(0);
  expect(clockLists.stats().bytes).toBeLessThanOrEqual(2 * 2 ** 20 * RELEASE_MEMO_SHARE);
});

test("40 releases named in turn: at most 32 releases' data kept at once", async () => {
  const releases = state.data.history.releases.map((r) => r.release).slice(0, 40);
  for (const release of releases) expect((await handle(new Request(`http://h/timezone/Europe/London?tzdb=${release}`))).status).toBe(200);
  expect(state.data.releaseData.size).toBeLessThanOrEqual(32);
  expect(state.data.releaseData.evictions).toBeGreaterThan(0);
});

test("every older release's stores are in /metrics as one per store, and their counts never go down as releases' data are dropped", async () => {
  const memoOf = (name: string) => state.metrics.snapshot().memos![`older_releases_${name}`]!;
  const before = memoOf("addresses");
  // The same address under one release: a miss, then a hit in that release's own `addresses` store.
  for (let n = 0; n < 2; n++) expect((await handle(new Request("http://h/ip/8.8.8.8?tzdb=2018e"))).status).toBe(200);
  const asked = memoOf("addresses");
  expect(asked.misses).toBe(before.misses + 1);
  expect(asked.hits).toBe(before.hits + 1);
  expect(asked.entries).toBeGreaterThanOrEqual(1);
  expect(asked.bytes).toBeGreaterThan(0);
  // 40 other releases named: 2018e's data is dropped with its store, its counts stay.
  for (const release of state.data.history.releases.map((r) => r.release).slice(60, 100)) {
    expect((await handle(new Request(`http://h/timezone/Europe/London?tzdb=${release}`))).status).toBe(200);
  }
  expect(state.data.releaseData.get("2018e")).toBeUndefined();
  const after = memoOf("addresses");
  expect(after.hits).toBeGreaterThanOrEqual(asked.hits);
  expect(after.misses).toBeGreaterThanOrEqual(asked.misses);
});
