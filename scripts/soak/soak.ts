// `bun run soak`: the live-clock soak for minutes instead of seconds. Starts the service
// the way `bun run start` does (building generated/ if needed), loads it with wrk in rounds
// (every SOAK_EVERY-th response checked while served), checks the answers at rest after
// each round, and prints the counts. Exits 1 when anything served was wrong.
//
//   SOAK_MINUTES (default 5)  SOAK_EVERY (default 10)  WORKERS (default 2)

import { join } from "node:path";
import { checkAtRest, FIXED_PATH, runLiveLoad } from "./live-checks.ts";

const minutes = Number(process.env.SOAK_MINUTES ?? 5);
const every = Number(process.env.SOAK_EVERY ?? 10);
const ROUND_SECONDS = 30;

if (!Bun.which("wrk")) {
  console.error("soak: wrk is not installed (apt-get install wrk)");
  process.exit(2);
}

const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
const port = probe.port;
probe.stop(true);

// As `bun run start` does: build generated/ if needed, then the one entry point.
const built = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "build-if-stale.ts")], { stdout: "inherit", stderr: "inherit" });
if (built.exitCode !== 0) process.exit(2);
const service = Bun.spawn([process.execPath, join(import.meta.dir, "..", "..", "server", "process", "main.ts")], {
  env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), WORKERS: process.env.WORKERS ?? "2", RATE_LIMIT: "off", ACCESS_LOG: "off" },
  stdout: "ignore",
  stderr: "inherit",
  // Its own process group, so that the supervisor and its workers stop together.
  detached: true,
});
const base = `http://127.0.0.1:${port}`;
const stop = () => {
  try {
    process.kill(-service.pid, "SIGTERM");
  } catch {}
};
process.on("SIGINT", () => (stop(), process.exit(130)));

let fixedBefore: string | null = null;
for (const deadline = Date.now() + 120_000; fixedBefore === null && Date.now() < deadline;) {
  fixedBefore = await fetch(base + FIXED_PATH).then((r) => (r.ok ? r.text() : null), () => null);
  if (fixedBefore === null) await Bun.sleep(250);
}
if (fixedBefore === null) {
  stop();
  console.error("soak: the service did not answer within 2 minutes");
  process.exit(2);
}

const totals = { requests: 0, checked: 0, bad: 0, socketErrors: 0, non2xx: 0, restAnswers: 0, restWrong: 0, fixedDifferent: 0, stalled: 0 };
const rounds = Math.max(1, Math.round((minutes * 60) / ROUND_SECONDS));
console.log(`soak: ${rounds} rounds of ${ROUND_SECONDS} s against ${base} (WORKERS=${process.env.WORKERS ?? "2"}), every ${every}th response checked under load`);
for (let round = 1; round <= rounds; round++) {
  const run = await runLiveLoad(base, ROUND_SECONDS, every);
  const rest = await checkAtRest(base, fixedBefore, 50, 50);
  totals.requests += run.requests;
  totals.checked += run.checked;
  totals.bad += run.bad;
  totals.socketErrors += run.socketErrors;
  totals.non2xx += run.non2xx;
  totals.restAnswers += rest.answers;
  totals.restWrong += rest.problems.length;
  totals.fixedDifferent += rest.fixedDifferent;
  if (rest.advancedMs < 900 || rest.advancedMs > 3000) totals.stalled++;
  console.log(`round ${round}: ${run.requests} requests, checked ${run.checked}, bad ${run.bad}${run.bad ? ` (${run.firstBad})` : ""}, ` +
    `socket errors ${run.socketErrors}, non-2xx ${run.non2xx}; at rest ${rest.problems.length}/${rest.answers} wrong` +
    `${rest.problems.length ? ` (${rest.problems[0]})` : ""}, clock +${rest.advancedMs} ms in 1 s, fixed instant ${rest.fixedDifferent} different`);
}
stop();
const failed = totals.bad + totals.socketErrors + totals.non2xx + totals.restWrong + totals.fixedDifferent + totals.stalled;
console.log(`soak: ${totals.requests} requests; ${totals.checked} checked under load, ${totals.bad} wrong; ${totals.restAnswers} at rest, ` +
  `${totals.restWrong} wrong; ${totals.socketErrors} socket errors; ${totals.non2xx} non-2xx; fixed instant changed ${totals.fixedDifferent} times; ` +
  `clock stalled in ${totals.stalled} rounds -> ${failed === 0 ? "OK" : "FAILED"}`);
process.exit(failed === 0 ? 0 : 1);
