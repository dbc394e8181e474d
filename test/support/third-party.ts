// Third-party client code for the dialect tests, never committed: from a local mirror of
// its repository (MIRROR_DIR, else ../shared/mirrors beside the repository, where every
// repository these tests read is kept as a bare git copy), or from the npm registry into a
// temporary folder. CI has the npm registry and Debian, not GitHub, so the mirrors are what
// lets it run the clients. Outside CI a test whose mirror is absent skips and says so; under
// CI=true it runs and fails, because a skipped compatibility test proves nothing.

import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inCi, SHARED_DIR } from "./shared-data.ts";

export const MIRROR_DIR = process.env.MIRROR_DIR || join(SHARED_DIR, "mirrors");

/** The bare git directory of `owner/name`, or null when it was never fetched here. */
export function mirrorRepo(repo: string): string | null {
  const dir = join(MIRROR_DIR, repo.replace("/", "+"), "repo");
  return existsSync(dir) ? dir : null;
}

/** The bare git directory of `owner/name`; throws, naming where it was looked for, when absent. */
export function mirrorGitDir(repo: string): string {
  const dir = mirrorRepo(repo);
  if (dir === null) throw new Error(`${repo} is not mirrored in ${MIRROR_DIR} (set MIRROR_DIR, or keep ../shared/mirrors beside the repository)`);
  return dir;
}

/** Whether a test of `repo`'s client skips: only outside CI, and only when no mirror holds it. */
export const skipWithoutMirror = (repo: string): boolean => !inCi() && mirrorRepo(repo) === null;

/** One file of a mirrored repository at its newest stored commit (or `commit`). */
export function mirrorFile(repo: string, path: string, commit = "HEAD"): string {
  const dir = mirrorGitDir(repo);
  const run = Bun.spawnSync(["git", "--git-dir", dir, "show", `${commit}:${path}`]);
  if (run.exitCode !== 0) throw new Error(`${repo}:${path}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** A working copy of a mirrored repository in a temporary folder. */
export function mirrorCheckout(repo: string): string {
  const dir = mirrorGitDir(repo);
  const out = mkdtempSync(join(tmpdir(), `zonetime-${repo.replace("/", "-")}-`));
  const run = Bun.spawnSync(["git", "clone", "-q", dir, out]);
  if (run.exitCode !== 0) throw new Error(`clone ${repo}: ${run.stderr.toString()}`);
  return out;
}

/** Packages pinned exactly, installed from the npm registry into a fresh folder (with bun's client). */
export function npmInstall(packages: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-npm-client-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "client-under-test", private: true, dependencies: packages }));
  const run = Bun.spawnSync([process.execPath, "install", "--no-save", "--silent"], { cwd: dir, env: { ...process.env, BUN_INSTALL_CACHE_DIR: join(tmpdir(), "zonetime-npm-cache") } });
  if (run.exitCode !== 0) throw new Error(`installing ${Object.keys(packages).join(", ")} from npm failed: ${run.stderr.toString()}`);
  return dir;
}

export const skipMessage = (repo: string) => `${repo} is not mirrored here (CI has no GitHub): put a bare clone in ${MIRROR_DIR} to run this client`;
