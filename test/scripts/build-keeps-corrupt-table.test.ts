// `bun run build --only tz` keeps geo.bin and the IP tables by hard-linking the serving set's
// files (scripts/table-set-writer.ts, keep()). It once copied their sha256 and length from the
// old manifest without reading them, so a kept file damaged underneath (truncated here, as a
// disk error, an `rsync --inplace` or a stray `truncate` would) was committed in a set that
// could not load: every SIGHUP then failed (reload_failed), and the next start. Now each kept
// file is checked against the old manifest and a part that no longer matches is rebuilt
// (found by a probe of main; this test failed there).

import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTableSet } from "../../server/process/table-set.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("a build that keeps a damaged table never commits a set that cannot load", async () => {
  const source = await testDataDir();
  const dir = mkdtempSync(join(tmpdir(), "zonetime-probe-keep-"));
  dirs.push(dir);
  expect(Bun.spawnSync(["cp", "-a", `${source}/.`, dir]).exitCode).toBe(0);
  await readTableSet(dir); // the copy loads
  const manifestBefore = readFileSync(join(dir, "manifest.json"), "utf8");
  const set = JSON.parse(manifestBefore).set as string | undefined;
  truncateSync(join(dir, set ?? ".", "geo.bin"), 100);

  const child = Bun.spawn([process.execPath, join(ROOT, "scripts", "build.ts"), "--no-site", "--only", "tz", "--out", dir], { stdout: "pipe", stderr: "pipe" });
  const code = await child.exited;

  const stderr = await new Response(child.stderr).text();
  // The damaged part is rebuilt, and said so; the build succeeds and what it committed loads.
  expect({ code, rebuilt: /rebuilding geo, not keeping it: .*geo\.bin has 100 bytes/.test(stderr) }).toEqual({ code: 0, rebuilt: true });
  const loaded = await readTableSet(dir).then(() => "loads", (error: Error) => error.message);
  expect(loaded).toBe("loads");
  expect(readFileSync(join(dir, "manifest.json"), "utf8")).not.toBe(manifestBefore);
}, 300_000);
