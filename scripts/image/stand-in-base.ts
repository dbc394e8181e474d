// A stand-in for the Dockerfile's base image (oven/bun:<version>-debian) on a machine that
// reaches no container registry but does reach Debian's mirror and the npm registry: a
// Debian bookworm root from debootstrap (minbase, plus ca-certificates as the real image
// has) and the same Bun release from npm (@oven/bun-linux-<arch>, the package that
// `npm install bun` itself fetches), with the real image's user `bun` (uid 1000), PATH,
// working directory and command. Imported under the real image's name, so the Dockerfile
// stays the one every registry user builds. Needs root (debootstrap) and a few minutes.

import { mkdirSync, chmodSync, symlinkSync, appendFileSync, chownSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { containerEngine, type ContainerEngine } from "./container-engine.ts";
import { importDebianRoot, MIRROR, run, SUITE } from "./debian-root.ts";

/** `oven/bun:1.4.4-debian` -> "1.4.4"; the stand-in is made only for that image family. */
export function bunVersionOf(baseImage: string): string {
  const m = /^(?:docker\.io\/)?oven\/bun:(\d+\.\d+\.\d+)-debian$/.exec(baseImage);
  if (!m) throw new Error(`no stand-in recipe for ${baseImage}: only oven/bun:<version>-debian`);
  return m[1]!;
}

export function makeStandInBase(engine: ContainerEngine, baseImage: string): void {
  const version = bunVersionOf(baseImage);
  const arch = process.arch === "x64" ? "x64" : process.arch === "arm64" ? "aarch64" : null;
  if (arch === null) throw new Error(`no Bun build on npm for ${process.arch}`);
  console.error(`image: ${baseImage} cannot be pulled; making a stand-in from Debian ${SUITE} (${MIRROR}) and bun@${version} from npm`);
  importDebianRoot(engine, baseImage, ["ca-certificates"], [
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "WORKDIR /home/bun/app",
    'CMD ["/usr/local/bin/bun"]',
  ], (rootfs, work) => {
    run(["npm", "pack", "--silent", `@oven/bun-linux-${arch}@${version}`], { cwd: work });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"))!;
    run(["tar", "-xzf", tarball, "package/bin/bun"], { cwd: work });
    run(["install", "-m", "0755", join(work, "package", "bin", "bun"), join(rootfs, "usr", "local", "bin", "bun")]);
    symlinkSync("bun", join(rootfs, "usr", "local", "bin", "bunx"));
    // The real image's user: bun, uid and gid 1000, home /home/bun, app in /home/bun/app.
    appendFileSync(join(rootfs, "etc", "passwd"), "bun:x:1000:1000::/home/bun:/bin/sh\n");
    appendFileSync(join(rootfs, "etc", "group"), "bun:x:1000:\n");
    mkdirSync(join(rootfs, "home", "bun", "app"), { recursive: true });
    chownSync(join(rootfs, "home", "bun"), 1000, 1000);
    chownSync(join(rootfs, "home", "bun", "app"), 1000, 1000);
    chmodSync(join(rootfs, "home", "bun"), 0o755);
  });
  console.error(`image: stand-in ${baseImage} made`);
}

if (import.meta.main) {
  const engine = containerEngine();
  if (!engine) throw new Error("neither podman nor docker is installed");
  makeStandInBase(engine, process.argv[2] ?? "oven/bun:1.4.4-debian");
}
