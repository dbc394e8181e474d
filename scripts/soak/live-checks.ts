// The live-clock soak's pieces, shared by `bun run soak` (minutes) and the soak test in
// `bun test` (a million requests): wrk loads the time-object routes while its Lua script
// checks a sample of what is served, then the answers are checked again at rest. On
// 2026-11-21 the clock froze after a few hundred requests and some bodies ended in a
// stray byte, while every test passed: what matters is what is served after load.

import { join } from "node:path";

/**
 * Time-object routes, root and /api, JSON and .txt, zones and addresses (all live: no
 * `at`), and TimeZoneDB's "now", whose answer is kept for the second it is about
 * (server/http/dialects/kept-answers.ts): a kept answer outliving its second shows here.
 */
export const LIVE_PATHS = [
  "/timezone/Europe/London",
  "/timezone/America/Argentina/Salta.txt",
  "/api/timezone/Africa/Abidjan",
  "/api/timezone/Asia/Kathmandu.txt",
  "/ip/8.8.8.8",
  "/api/ip/2001:4860:4860::8888",
  "/timezone/UTC",
  "/api/ip/81.2.69.142.txt",
  "/v2.1/get-time-zone?by=zone&zone=Europe/London&format=json",
  "/v2/get-time-zone?by=position&lat=40.71&lng=-74.0&format=json",
];

/** TimeZoneDB's answers: whole seconds, local (`timestamp`) and its offset. */
const TIMEZONEDB = /^\/v2(?:\.1)?\/get-time-zone\?/;

/** A fixed instant, whose answer must stay byte-identical however long the service runs. */
export const FIXED_PATH = "/timezone/Europe/London?at=2026-11-21T12:34:56.123456Z";

const TIME_OBJECT_KEYS = 15;

/** What is wrong with a live answer taken at `nowMs`, or null when it is a whole, current time object. */
export function liveAnswerProblem(path: string, status: number, body: string, nowMs: number): string | null {
  if (status !== 200) return `${path}: status ${status}`;
  if (TIMEZONEDB.test(path)) return timezoneDbProblem(path, body, nowMs);
  let utc: string;
  if (path.endsWith(".txt")) {
    const lines = body.split("\n");
    if (lines.pop() !== "" || lines.length !== TIME_OBJECT_KEYS || !lines.every((l) => /^[a-z_]+: [ -~]*$/.test(l))) {
      return `${path}: malformed text ${JSON.stringify(body.slice(-24))}`;
    }
    utc = lines.find((l) => l.startsWith("utc_datetime: "))!.slice("utc_datetime: ".length);
  } else {
    try {
      const o = JSON.parse(body);
      if (Object.keys(o).length !== TIME_OBJECT_KEYS) return `${path}: ${Object.keys(o).length} keys`;
      utc = o.utc_datetime;
    } catch {
      return `${path}: invalid JSON ${JSON.stringify(body.slice(-24))}`;
    }
  }
  const skewMs = Math.abs(Date.parse(utc) - nowMs);
  if (!(skewMs <= 1000)) return `${path}: utc_datetime ${utc} is ${skewMs} ms from the system clock`;
  return null;
}

/** A TimeZoneDB answer about now: status OK, its second (timestamp - gmtOffset) the one `nowMs` is in, or the one before. */
function timezoneDbProblem(path: string, body: string, nowMs: number): string | null {
  let answer: { status?: string; timestamp?: number; gmtOffset?: number };
  try {
    answer = JSON.parse(body);
  } catch {
    return `${path}: invalid JSON ${JSON.stringify(body.slice(-24))}`;
  }
  if (answer.status !== "OK" || typeof answer.timestamp !== "number" || typeof answer.gmtOffset !== "number") {
    return `${path}: not an answer ${JSON.stringify(body.slice(0, 48))}`;
  }
  const lagMs = nowMs - (answer.timestamp - answer.gmtOffset) * 1000;
  if (!(lagMs >= 0 && lagMs < 2000)) return `${path}: its second is ${lagMs} ms before the system clock`;
  return null;
}

export interface WrkRun {
  requests: number;
  /** wrk's "Socket errors" line summed (0 when wrk prints none). */
  socketErrors: number;
  non2xx: number;
  /** From the Lua script: responses checked under load, and how many were wrong. */
  checked: number;
  bad: number;
  firstBad: string;
}

/** wrk over LIVE_PATHS for `seconds`, checking every `every`-th response under load. */
export async function runLiveLoad(base: string, seconds: number, every = 100, connections = 50): Promise<WrkRun> {
  const child = Bun.spawn(["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "-s", join(import.meta.dir, "live-load.lua"), base], {
    env: { ...process.env, SOAK_PATHS: LIVE_PATHS.join(" "), SOAK_EVERY: String(every) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  await child.exited;
  const requests = /^\s*(\d+) requests in /m.exec(out);
  const soak = /^soak: sent (\d+) checked (\d+) bad (\d+) first-bad (.*)$/m.exec(out);
  if (!requests || !soak) throw new Error(`wrk's output is not what was expected:\n${out}${err}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    requests: Number(requests[1]),
    socketErrors: errors ? errors.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    checked: Number(soak[2]),
    bad: Number(soak[3]),
    firstBad: soak[4]!,
  };
}

export interface RestChecks {
  answers: number;
  problems: string[];
  /** utc_datetime of /timezone/UTC read twice, a second apart: the difference in ms. */
  advancedMs: number;
  fixedRepeats: number;
  fixedDifferent: number;
}

/** After load: `answers` live answers, the clock advancing over a second, the fixed instant repeated. */
export async function checkAtRest(base: string, fixedBefore: string, answers = 300, fixedRepeats = 300): Promise<RestChecks> {
  const problems: string[] = [];
  for (let i = 0; i < answers; i++) {
    const path = LIVE_PATHS[i % LIVE_PATHS.length]!;
    const r = await fetch(base + path);
    const body = await r.text();
    const problem = liveAnswerProblem(path, r.status, body, Date.now());
    if (problem) problems.push(problem);
  }
  const utcNow = async () => Date.parse(((await (await fetch(`${base}/timezone/UTC`)).json()) as { utc_datetime: string }).utc_datetime);
  const first = await utcNow();
  await Bun.sleep(1000);
  const advancedMs = (await utcNow()) - first;
  let fixedDifferent = 0;
  for (let i = 0; i < fixedRepeats; i++) {
    if ((await (await fetch(base + FIXED_PATH)).text()) !== fixedBefore) fixedDifferent++;
  }
  return { answers, problems, advancedMs, fixedRepeats, fixedDifferent };
}
