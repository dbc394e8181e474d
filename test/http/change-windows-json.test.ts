// A release pair's windows are written straight to JSON text (changes-answer.ts windowsJson):
// the text must be exactly what JSON.stringify writes of the entries as objects (windowEntry,
// which the reference tests compare with zdump's), for every name of the pairs answered
// most (consecutive ones, the oldest against the newest), both profiles, the default range
// and, for the consecutive pairs, the widest one.

import { expect, test } from "bun:test";
import { loadData } from "../../server/process/load-data.ts";
import { releaseChanges, windowEntry, windowsJson } from "../../server/http/time-machine/changes-answer.ts";
import { testDataDir } from "../support/test-server.ts";

test("windowsJson writes the text JSON.stringify writes of windowEntry's objects", async () => {
  const { history } = await loadData(await testDataDir());
  const releases = history.releases.map((r) => r.release);
  // [since, release]; the releases are newest first.
  const pairs = [[releases.at(-1)!, releases[0]!], [releases[1]!, releases[0]!], [releases.at(-1)!, releases.at(-2)!]] as const;
  let windows = 0;
  for (const [since, release] of pairs) {
    // The widest range (0001-9999) for the consecutive pairs: the far one over it walks for half a minute.
    const far = since === releases.at(-1) && release === releases[0];
    for (const [start, end] of far ? [[undefined, undefined]] as const : [[undefined, undefined], [-62135596800, 253402300800]] as const) {
      for (const { windows: ws } of releaseChanges(history, since, release, start, end).changed) {
        for (const profile of ["spec", "wta"] as const) expect(windowsJson(ws, profile)).toBe(JSON.stringify(ws.map((w) => windowEntry(w, profile))));
        windows += ws.length;
      }
    }
  }
  expect(windows).toBeGreaterThan(50_000); // 92c against 2026f alone has 15,203
  expect(windowsJson([], "spec")).toBe("[]");
}, 120_000);
