// The zic of a release's own time, built from IANA's repository at that release's commit:
// what shows how it read what our reader once refused (95m-96f's copied Rules, 1999g-i's and
// 2009u's SAVE "-", 2008d's Sofia; test/support/release-reference.ts). Built as the era built
// it, with a 32-bit time_t (`gcc -m32`, Debian's gcc-multilib): zic before 2005 computed with
// time_t and wrote TZif version 1 (32-bit times, 1901-12-13 to 2038-01-19); on a 64-bit
// time_t its overflow checks fail and times before 1901 wrap around. Before 96h its files
// have no "TZif" magic, which glibc's reader wants: compare its files' bytes, not zdump's. Each distinct zic.c is built once
// into a temporary folder named by its git blob hash, never into the repository.
// `bun scripts/tzdb/era-zic.ts COMMIT [--mirror DIR]` prints the binary's path.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../paths.ts";

export const DEFAULT_MIRROR = resolve(ROOT, "..", "shared", "mirrors", "eggert+tz", "repo");

function git(mirror: string, args: string[]): string {
  const r = Bun.spawnSync(["git", `--git-dir=${mirror}`, ...args], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** The path of the zic built from `commit`'s zic.c (and its helpers), building it if needed. */
export function eraZic(commit: string, mirror = DEFAULT_MIRROR): string {
  const blob = git(mirror, ["rev-parse", `${commit}:zic.c`]).trim();
  const cache = join(tmpdir(), "zonetime-era-zic");
  // Named by the build's flags too: a binary built otherwise is not reused.
  const binary = join(cache, `zic-${blob}-fwrapv`);
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "build-"));
  try {
    const archive = Bun.spawnSync(["sh", "-c", `git --git-dir="$1" archive "$2" | tar -x -C "$3"`, "sh", mirror, commit, dir], { stderr: "pipe" });
    if (archive.exitCode !== 0) throw new Error(`extracting ${commit}: ${archive.stderr.toString()}`);
    const zicSource = readFileSync(join(dir, "zic.c"), "utf8");
    // scheck.c and ialloc.c were merged into zic.c in 2014.
    const sources = ["zic.c", "scheck.c", "ialloc.c"].filter((f) => existsSync(join(dir, f)));
    // From 2013 zic.c includes version.h, which its Makefile writes.
    if (/#include "version\.h"/.test(zicSource) && !existsSync(join(dir, "version.h"))) {
      writeFileSync(join(dir, "version.h"), 'static char const PKGVERSION[]="(tz) ";\nstatic char const TZVERSION[]="unknown";\nstatic char const REPORT_BUGS_TO[]="tz@iana.org";\n');
    }
    // 92c-94h's Makefile links emkdir.o, whose source was never checked in: it made the
    // output's folders, which mkdir(2) does.
    if (/\bemkdir\.o\b/.test(readFileSync(join(dir, "Makefile"), "utf8"))) {
      if (!existsSync(join(dir, "emkdir.c"))) {
        writeFileSync(join(dir, "emkdir.c"), "#include <sys/stat.h>\nint emkdir(name, mode) char *name; int mode; { return mkdir(name, mode); }\n");
      }
      sources.push("emkdir.c");
    }
    // K&R C of 1993-2009: gnu89, warnings off (implicit declarations, old-style
    // definitions); the C library has strerror, which zic otherwise declares itself. Its
    // overflow checks test whether a signed sum wrapped (tadd, oadd): -fwrapv keeps them, as
    // the era's compilers did (with -O, gcc drops them and 1891 compares after 1911).
    // A zic that computes with its own 64-bit zic_t (2005 on) is built natively.
    const width = /\bzic_t\b/.test(zicSource) ? [] : ["-m32"];
    const cc = ["gcc", ...width, "-std=gnu89", "-w", "-fwrapv", "-DHAVE_STRERROR=1", '-DTZDIR="/nonexistent"', "-o", "zic", ...sources];
    const r = Bun.spawnSync(cc, { cwd: dir, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`building zic.c ${blob} (${commit}): ${r.stderr.toString()}`);
    renameSync(join(dir, "zic"), binary);
    return binary;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { mirror: { type: "string", default: DEFAULT_MIRROR } } });
  if (positionals.length !== 1) throw new Error("usage: bun scripts/tzdb/era-zic.ts COMMIT [--mirror DIR]");
  console.log(eraZic(positionals[0]!, values.mirror!));
}
