// Issue 32: the client tests never skip on CI. The repositories they read come from
// MIRROR_DIR when it is set, else from ../shared/mirrors beside the repository (a fresh
// clone's CI has that and no other mirror); under CI=true a missing one is a failure, never
// a skip. Asked of a child process with MIRROR_DIR unset, as CI runs: the default is read
// when test/support/third-party.ts is loaded.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../../support/test-server.ts";

/** Every repository a client test reads (owner/name, as the tests name them). */
const CLIENT_REPOS = [
  "abrihter/timezonedb", "namnv609/timezonedb-php-api", "nigelhorne/TimeZone-TimeZoneDB", "jdforsythe/timezonedb",
  "Seeed-Solution/SenseCAP_Indicator_ESP32", "NicoToff/web-workers-demo", "supeGirl/ZentrackBack", "JonnyWalker81/nixos-config",
  "googlemaps/google-maps-services-python", "googlemaps/google-maps-services-go", "googlemaps/google-maps-services-java",
  "espressif/newlib-esp32",
];

function asCi(script: string): { dir: string; found: Record<string, boolean>; skipsAbsent: boolean; absentError: string } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "MIRROR_DIR" && k !== "NEWLIB_ESP32_GIT") env[k] = v;
  env.CI = "true";
  const run = Bun.spawnSync([process.execPath, "-e", script], { env, cwd: ROOT });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

test("with MIRROR_DIR unset, every client repository is found in ../shared/mirrors, and under CI=true a missing one fails", () => {
  const support = join(ROOT, "test", "support", "third-party.ts");
  const answer = asCi(`
import { MIRROR_DIR, mirrorRepo, mirrorGitDir, skipWithoutMirror } from ${JSON.stringify(support)};
let absentError = "";
try { mirrorGitDir("nobody/absent"); } catch (e) { absentError = String(e); }
console.log(JSON.stringify({
  dir: MIRROR_DIR,
  found: Object.fromEntries(${JSON.stringify(CLIENT_REPOS)}.map((r) => [r, mirrorRepo(r) !== null])),
  skipsAbsent: skipWithoutMirror("nobody/absent"),
  absentError,
}));`);
  expect(answer.dir).toBe(join(ROOT, "..", "shared", "mirrors"));
  expect(Object.entries(answer.found).filter(([, found]) => !found).map(([repo]) => repo)).toEqual([]);
  // Absent under CI: the test runs (no skip) and fails, naming where it looked.
  expect(answer.skipsAbsent).toBe(false);
  expect(answer.absentError).toContain(answer.dir);
});
