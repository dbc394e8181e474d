// What each release changed, against a brute-force reference for every consecutive pair of
// releases served: both releases compiled by the machine's zic, every name whose TZif bytes
// differ read by zdump -v over 1800-2100 in both, and the windows in which the two listings
// disagree found by walking every instant either changes at. Our windows (the ones
// /tzdb/{release}/changes and /timezone/{name}/changes answer) must be identical, and a
// name whose bytes are equal must have none.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { releaseChanges, windowEntry } from "../../server/http/time-machine/changes-answer.ts";
import { testHistory } from "../support/history-table.ts";
import { bruteWindows, removeZicRelease, storedReleases, verboseHistories, zicRelease } from "../support/release-reference.ts";

const LO = Date.UTC(1800, 0, 1) / 1000;
const HI = Date.UTC(2101, 0, 1) / 1000;

describe("release changes against zdump -v, every consecutive pair", () => {
  test("every pair, every name: identical windows", async () => {
    const started = performance.now();
    const history = await testHistory();
    const releases = storedReleases();
    const differences: string[] = [];
    let pairs = 0;
    let windows = 0;
    let diffed = 0;
    for (let i = releases.length - 1; i > 0; i--) {
      const [since, release] = [releases[i]!.release, releases[i - 1]!.release];
      const [dirA, dirB] = [zicRelease(since), zicRelease(release)];
      const ours = releaseChanges(history, since, release);
      const a = history.table(since)!;
      const b = history.table(release)!;
      const common = b.names.filter((n) => a.resolve(n)?.name === n);
      const differing = common.filter((n) => !readFileSync(join(dirA, n)).equals(readFileSync(join(dirB, n))));
      const [ha, hb] = [await verboseHistories(dirA, differing, 1800, 2101), await verboseHistories(dirB, differing, 1800, 2101)];
      const expected = new Map<string, ReturnType<typeof bruteWindows>>();
      for (const name of differing) {
        const w = bruteWindows(ha.histories.get(name)!, hb.histories.get(name)!, LO, HI);
        if (w.length > 0) expected.set(name, w);
      }
      const got = new Map(ours.changed.map((c) => [c.name, c.windows.map((w) => windowEntry(w, "spec"))]));
      for (const name of new Set([...expected.keys(), ...got.keys()])) {
        if (JSON.stringify(expected.get(name)) !== JSON.stringify(got.get(name))) {
          differences.push(`${since}->${release} ${name}: ours ${JSON.stringify(got.get(name))?.slice(0, 200)} vs zdump ${JSON.stringify(expected.get(name))?.slice(0, 200)}`);
        }
      }
      expect(ours.added).toEqual(b.names.filter((n) => !a.resolve(n) || a.resolve(n)!.name !== n));
      pairs++;
      diffed += differing.length;
      windows += [...expected.values()].reduce((s, w) => s + w.length, 0);
      removeZicRelease(since); // the older tree is no longer needed
    }
    removeZicRelease(releases[0]!.release);
    console.log(`release changes vs zdump -v: ${pairs} consecutive pairs, ${diffed} (pair, name) with different TZif bytes diffed, ` +
      `${windows} windows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    expect(differences.slice(0, 20)).toEqual([]);
    expect(pairs).toBe(releases.length - 1);
    // 92c-2000e among them: their Rules have year types (zic ran their yearistype.sh).
    expect(releases.length).toBeGreaterThanOrEqual(238);
    expect(windows).toBeGreaterThan(1000);
  }, 1_800_000);
});
