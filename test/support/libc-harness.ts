// The C libraries of devices, run for real: test/device/harness/tz-harness.c linked with
// glibc (gcc), with musl (musl-gcc) and with ESP-IDF's newlib time code built for the host
// (espressif/newlib-esp32, branch esp-4.3.0, newlib/libc/time/tzset_r.c and the files it
// needs). Each reads "TZ<TAB>unixtime" lines and prints "utoff<TAB>abbr<TAB>isdst".
//
// newlib is third-party source that is never committed: it is read from a mirror of the
// repository (NEWLIB_ESP32_GIT, else the client mirrors, ../shared/mirrors by default). Where
// no mirror is, newlib is skipped with a message saying so, and glibc and musl still run;
// under CI=true its absence is an error instead, since a skipped libc proves nothing.

import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireTool } from "./require-tool.ts";
import { inCi } from "./shared-data.ts";
import { MIRROR_DIR } from "./third-party.ts";

const HARNESS_DIR = join(import.meta.dir, "..", "device", "harness");
const NEWLIB_GIT = process.env.NEWLIB_ESP32_GIT || join(MIRROR_DIR, "espressif+newlib-esp32", "repo");
export const NEWLIB_BRANCH = "esp-4.3.0";
const NEWLIB_TIME_FILES = ["tzset_r.c", "tzcalc_limits.c", "lcltime_r.c", "local.h", "gettzinfo.c", "gmtime_r.c", "tzvars.c", "month_lengths.c"];

export interface Harnesses {
  /** libc name -> executable */
  run: Map<string, string>;
  /** Why a libc was left out, for the test log. */
  skipped: string[];
}

function compile(args: string[], what: string): void {
  const result = Bun.spawnSync(args, { stderr: "pipe", stdout: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${what}: ${args.join(" ")}\n${result.stderr.toString()}`);
}

function git(args: string[]): Buffer {
  const result = Bun.spawnSync(["git", `--git-dir=${NEWLIB_GIT}`, ...args], { stderr: "pipe", stdout: "pipe" });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.toString()}`);
  return result.stdout;
}

let built: Harnesses | null = null;

export function buildHarnesses(): Harnesses {
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), "zonetime-tz-harness-"));
  const source = join(HARNESS_DIR, "tz-harness.c");
  const run = new Map<string, string>();
  const skipped: string[] = [];

  compile([requireTool("gcc"), "-O2", "-o", join(dir, "glibc"), source], "glibc harness");
  run.set("glibc", join(dir, "glibc"));
  compile([requireTool("musl-gcc"), "-O2", "-static", "-o", join(dir, "musl"), source], "musl harness");
  run.set("musl", join(dir, "musl"));

  if (!existsSync(NEWLIB_GIT)) {
    if (inCi()) throw new Error(`no mirror of espressif/newlib-esp32 at ${NEWLIB_GIT}: with CI=true the newlib harness must run (set NEWLIB_ESP32_GIT or keep ../shared/mirrors beside the repository)`);
    skipped.push(`newlib skipped: no mirror of espressif/newlib-esp32 at ${NEWLIB_GIT} (set NEWLIB_ESP32_GIT to a bare clone)`);
  } else {
    const src = join(dir, "newlib-src");
    mkdirSync(join(src, "sys"), { recursive: true });
    for (const file of NEWLIB_TIME_FILES) writeFileSync(join(src, file), git(["show", `${NEWLIB_BRANCH}:newlib/libc/time/${file}`]));
    writeFileSync(join(src, "sys", "_tz_structs.h"), git(["show", `${NEWLIB_BRANCH}:newlib/libc/include/sys/_tz_structs.h`]));
    const shim = join(HARNESS_DIR, "newlib-shim");
    compile([
      requireTool("gcc"), "-O2", "-w", "-DNEWLIB_HOST", `-I${shim}`, `-I${src}`, "-include", join(shim, "newlib-host.h"),
      "-o", join(dir, "newlib"), source, join(shim, "newlib-host.c"),
      ...NEWLIB_TIME_FILES.filter((f) => f.endsWith(".c")).map((f) => join(src, f)),
    ], "newlib harness");
    run.set("newlib", join(dir, "newlib"));
  }
  built = { run, skipped };
  return built;
}

export interface LibcReading {
  utoff: number;
  abbr: string;
  isdst: boolean;
}

/** Every (TZ, instant) through one process of the harness: one reading per query, in order. */
export async function readAll(executable: string, queries: readonly { tz: string; t: number }[]): Promise<LibcReading[]> {
  const input = join(mkdtempSync(join(tmpdir(), "zonetime-tz-queries-")), "queries.tsv");
  let text = "";
  for (const q of queries) text += `${q.tz}\t${q.t}\n`;
  writeFileSync(input, text);
  const child = Bun.spawn([executable], { stdin: Bun.file(input), stdout: "pipe", stderr: "pipe" });
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`${executable} failed: ${await new Response(child.stderr).text()}`);
  const lines = out.split("\n");
  if (lines.length - 1 !== queries.length) throw new Error(`${executable}: ${lines.length - 1} answers for ${queries.length} queries`);
  const readings: LibcReading[] = new Array(queries.length);
  for (let i = 0; i < queries.length; i++) {
    const [utoff, abbr, isdst] = lines[i]!.split("\t");
    readings[i] = { utoff: Number(utoff), abbr: abbr!, isdst: Number(isdst) > 0 };
  }
  return readings;
}
