// Starting the service where it may not write its tables: as an unprivileged user
// (setpriv) on root-owned 0644 tables, and on a read-only mount. Switching user and
// mounting need root (CI runs as root); as another user the unprivileged case is made with
// files of its own that it may not write (0444), which it would otherwise open O_RDWR.

import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flatDataCopy } from "./data-copy.ts";
import { requireTool } from "./require-tool.ts";
import { ROOT } from "./test-server.ts";

export const isRoot = () => process.getuid?.() === 0;
/** The unprivileged user and group (nobody, nogroup on Debian). */
export const NOBODY = 65534;

/** A folder every user may read and enter (mkdtemp makes 0700 ones). */
export function openDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * A copy of the server's code that `nobody` may read: the repository may live where only
 * root may enter (CI's checkout, /root). server/ imports nothing from node_modules.
 */
export function readableServerCopy(): { entry: string; dir: string } {
  const dir = openDir("zonetime-app-");
  cpSync(join(ROOT, "server"), join(dir, "server"), { recursive: true });
  readableTree(dir);
  return { entry: join(dir, "server", "process", "main.ts"), dir };
}

/** Folders 0755 and files 0644 under `dir`: readable by everyone, writable by the owner only. */
export function readableTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    chmodSync(path, entry.isDirectory() ? 0o755 : 0o644);
    if (entry.isDirectory()) readableTree(path);
  }
}

/** The command prefix that runs a program as nobody:nogroup with no supplementary groups (root only). */
export function asNobody(): string[] {
  return [requireTool("setpriv"), `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
}

/** A copy of `source` (tables and manifest) in a world-readable folder, every file 0644, owned by whoever runs the test. */
export function readableDataCopy(source: string): string {
  const dir = join(openDir("zonetime-data-"), "generated");
  mkdirSync(dir, { mode: 0o755 });
  flatDataCopy(source, dir);
  readableTree(dir);
  return dir;
}

/**
 * A tmpfs of `megabytes` mounted at a new folder, filled by `fill`, then remounted
 * read-only. Needs root (mount). `unmount` takes it away.
 */
export function readOnlyMount(megabytes: number, fill: (dir: string) => void): { dir: string; unmount: () => void } {
  const dir = openDir("zonetime-ro-");
  const mount = requireTool("mount");
  const run = (args: string[]) => {
    const result = Bun.spawnSync([mount, ...args], { stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`mount ${args.join(" ")}: ${result.stderr.toString()}`);
  };
  run(["-t", "tmpfs", "-o", `size=${megabytes}m,mode=0755`, "tmpfs", dir]);
  const unmount = () => {
    Bun.spawnSync([requireTool("umount"), "-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    fill(dir);
    run(["-o", "remount,ro", dir]);
  } catch (error) {
    unmount();
    throw error;
  }
  return { dir, unmount };
}
