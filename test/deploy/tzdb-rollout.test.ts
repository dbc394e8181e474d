// A tzdb release rolled across three replicas under load, by the README's procedure for
// hosts without containers: `bun run tzdb:update <release>` writes the new set beside the
// old one (the replicas keep serving the old one: a set changed underneath never reaches
// an answer), then `kill -HUP` each replica in turn. Through nginx (the repository's
// nginx.conf) the whole time: no request fails, every answer names its release
// (X-Tzdb-Version, and the list's ETag the same one), and once the last replica has
// reloaded no answer comes from the old release. Printed: the answers per release per
// second, and the instant after which only the new release answers.
//
// The releases: IANA's 2026b tarball (../shared/data, SOURCE.md there) as the old one, the
// repository's data/tzdb (2026f) as the new one. They differ where it shows: America/Havana
// and America/Winnipeg now.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flatDataCopy } from "../support/data-copy.ts";
import { startNginx } from "../support/nginx.ts";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";
import { sharedData } from "../support/shared-data.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

const OLD_RELEASE = "2026b";
// Absent (../shared missing): a failed test under CI=true, a skip with the reason elsewhere (shared-data.ts).
const OLD_TARBALL = sharedData(`data/iana-release-${OLD_RELEASE}/tzdata${OLD_RELEASE}.tar.gz`, "the tzdb rollout across replicas");
const NEW_RELEASE = /^release: (\S+)$/m.exec(readFileSync(join(ROOT, "data", "tzdb", "VERSION"), "utf8"))![1]!;

const work = mkdtempSync(join(tmpdir(), "zonetime-rollout-"));
const tzdbDir = join(work, "tzdb");
const dataDir = join(work, "data");
let replicas: ServerProcess[] = [];
let nginx: Awaited<ReturnType<typeof startNginx>>;

/**
 * The operator's command, as the README writes it, with the folders this test owns. Async:
 * a synchronous spawn would freeze the load this process drives for the whole update.
 */
async function tzdbUpdate(release: string): Promise<void> {
  const child = Bun.spawn(["bun", "run", "tzdb:update", release, "--tzdb-dir", tzdbDir, "--out", dataDir], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`bun run tzdb:update ${release} exited ${code}:\n${out}${err}`);
}

beforeAll(async () => {
  if (OLD_TARBALL === null) return;
  cpSync(join(ROOT, "data", "tzdb"), tzdbDir, { recursive: true });
  mkdirSync(dataDir);
  flatDataCopy(await testDataDir(), dataDir);
  await tzdbUpdate(OLD_TARBALL);
  replicas = await Promise.all([0, 1, 2].map(() => startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT: "off", SITE_DIR: join(tmpdir(), "zonetime-no-site") })));
  nginx = await startNginx(replicas.map((r) => r.port));
}, 300_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  rmSync(work, { recursive: true, force: true });
});

interface Answer { at: number; status: number; release: string | null; etagRelease: string | null; havanaOffset: string | null }

/** Requests through nginx until stopped: a list (its ETag names the release) and a time object whose answer differs between the releases. */
function load(loops: number, stop: () => boolean): Promise<{ answers: Answer[]; failures: string[] }> {
  const answers: Answer[] = [];
  const failures: string[] = [];
  const paths = ["/timezone/America/Havana", "/timezone"];
  const loop = async (n: number) => {
    for (let i = n; !stop(); i++) {
      const path = paths[i % paths.length]!;
      try {
        const r = await fetch(`http://127.0.0.1:${nginx.port}${path}`);
        const body = await r.text();
        const etag = r.headers.get("etag");
        answers.push({
          at: performance.now(),
          status: r.status,
          release: r.headers.get("x-tzdb-version"),
          etagRelease: etag === null ? null : /tz-(\d{4}[a-z])/.exec(etag)?.[1] ?? "unnamed",
          havanaOffset: path.includes("Havana") && r.status === 200 ? (JSON.parse(body) as { utc_offset: string }).utc_offset : null,
        });
      } catch (error) {
        failures.push(`${path}: ${error}`);
      }
      await Bun.sleep(2); // steady, not a flood: other suites share the 2 cores
    }
  };
  return Promise.all(Array.from({ length: loops }, (_, n) => loop(n))).then(() => ({ answers, failures }));
}

test.skipIf(OLD_TARBALL === null)(`${OLD_RELEASE} -> ${NEW_RELEASE} across three replicas under load: no failure, every answer names its release, none from the old one after the rollout`, async () => {
  for (const r of replicas) expect((await fetch(`${r.url}/health`)).headers.get("x-tzdb-version")).toBe(OLD_RELEASE);
  let stop = false;
  const started = performance.now();
  const running = load(6, () => stop);
  await Bun.sleep(1500);
  await tzdbUpdate(join(ROOT, "data", "tzdb", "tzdata.zi"));
  const updatedAt = performance.now();
  await Bun.sleep(1500); // the new set is on disk; the replicas still answer from the old one
  const reloadedAt: number[] = [];
  const hupAt: number[] = [];
  for (const r of replicas) {
    const before = r.log.filter((l) => l.includes('"event":"reloaded"')).length;
    hupAt.push(performance.now());
    r.child.kill("SIGHUP");
    await waitForLog(r.log, '"event":"reloaded"', { count: before + 1, timeoutMs: 60_000, child: r.child });
    reloadedAt.push(performance.now());
    await Bun.sleep(1500);
  }
  stop = true;
  const { answers, failures } = await running;

  const rolledAt = reloadedAt.at(-1)!;
  const second = (t: number) => Math.floor((t - started) / 1000);
  const perSecond = new Map<number, Record<string, number>>();
  for (const a of answers) {
    const row = perSecond.get(second(a.at)) ?? {};
    row[a.release ?? "none"] = (row[a.release ?? "none"] ?? 0) + 1;
    perSecond.set(second(a.at), row);
  }
  const lastOld = Math.max(...answers.filter((a) => a.release === OLD_RELEASE).map((a) => a.at));
  console.log(`rollout ${OLD_RELEASE} -> ${NEW_RELEASE}: ${answers.length} answers, ${failures.length} failures; tzdb:update done at ${((updatedAt - started) / 1000).toFixed(1)} s, replicas reloaded at ${reloadedAt.map((t) => ((t - started) / 1000).toFixed(1)).join(", ")} s; last ${OLD_RELEASE} answer at ${((lastOld - started) / 1000).toFixed(2)} s, only ${NEW_RELEASE} after it`);
  console.log(`answers per second by release: ${[...perSecond].map(([s, row]) => `${s}s ${JSON.stringify(row)}`).join("; ")}`);

  expect(failures).toEqual([]);
  expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
  // Every answer names a release, one of the two, and its ETag (the list's) the same one.
  expect(answers.filter((a) => a.release !== OLD_RELEASE && a.release !== NEW_RELEASE)).toEqual([]);
  expect(answers.filter((a) => a.etagRelease !== null && a.etagRelease !== a.release)).toEqual([]);
  // What the answer says is the named release's: Havana's offset differs between the two.
  const havana = (release: string) => new Set(answers.filter((a) => a.release === release && a.havanaOffset !== null).map((a) => a.havanaOffset));
  expect(havana(OLD_RELEASE).size).toBe(1);
  expect(havana(NEW_RELEASE).size).toBe(1);
  expect([...havana(OLD_RELEASE)]).not.toEqual([...havana(NEW_RELEASE)]);
  // Nothing changed before the first SIGHUP (the set written underneath is not served)...
  expect(answers.filter((a) => a.at < hupAt[0]! && a.release !== OLD_RELEASE)).toEqual([]);
  expect(answers.filter((a) => a.at > updatedAt && a.at < hupAt[0]!).length).toBeGreaterThan(100);
  // ...and once the last replica reloaded, no answer came from the old release.
  expect(lastOld).toBeLessThan(rolledAt);
  expect(answers.filter((a) => a.at > rolledAt).length).toBeGreaterThan(100);
}, 180_000);
