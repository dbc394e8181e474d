// A Debian root filesystem from the mirror (debootstrap, minbase) imported as an image:
// what the stand-ins for registry images are made of on a machine that reaches Debian's
// mirror but no container registry (stand-in-base.ts, stand-in-services.ts). Needs root.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { engineRun, type ContainerEngine } from "./container-engine.ts";

export const MIRROR = process.env.DEBIAN_MIRROR ?? "http://deb.debian.org/debian";
export const SUITE = "bookworm";

export function run(argv: string[], options: { cwd?: string } = {}): void {
  const r = Bun.spawnSync(argv, { cwd: options.cwd, stdin: "ignore", stdout: "inherit", stderr: "inherit", env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` } });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (exit ${r.exitCode})`);
}

/**
 * Makes a bookworm minbase root with `include` packages in a scratch folder, lets
 * `prepare(rootfs, work)` finish it, and imports it as `image` with the Dockerfile-style
 * `changes` (CMD, USER, WORKDIR...). The scratch folder is removed whatever happens.
 */
export function importDebianRoot(engine: ContainerEngine, image: string, include: string[], changes: string[], prepare: (rootfs: string, work: string) => void): void {
  const work = mkdtempSync("/var/tmp/zonetime-root-");
  const rootfs = join(work, "rootfs");
  try {
    run(["debootstrap", "--variant=minbase", `--include=${include.join(",")}`, SUITE, rootfs, MIRROR]);
    prepare(rootfs, work);
    // What debootstrap leaves behind that an image does not need.
    for (const dir of ["var/cache/apt/archives", "var/lib/apt/lists"]) {
      for (const f of readdirSync(join(rootfs, dir))) if (f.endsWith(".deb") || f.includes("_")) rmSync(join(rootfs, dir, f), { force: true });
    }
    const tar = Bun.spawnSync(["tar", "-C", rootfs, "--numeric-owner", "-c", "."], { stdout: "pipe", stderr: "inherit", maxBuffer: 2 ** 31 });
    if (tar.exitCode !== 0) throw new Error("tar of the root filesystem failed");
    const imported = engineRun(engine, ["import", ...changes.flatMap((c) => ["--change", c]), "-", image], { input: new Blob([tar.stdout]) });
    if (!imported.ok) throw new Error(`${engine.name} import failed: ${imported.stderr}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The Debian version of `pkg` installed in `rootfs` (dpkg's status file). */
export function installedVersion(rootfs: string, pkg: string): string | null {
  const status = readFileSync(join(rootfs, "var", "lib", "dpkg", "status"), "utf8");
  for (const stanza of status.split("\n\n")) {
    if (new RegExp(`^Package: ${pkg}$`, "m").test(stanza) && /^Status: install ok installed$/m.test(stanza)) return /^Version: (.+)$/m.exec(stanza)?.[1] ?? null;
  }
  return null;
}
