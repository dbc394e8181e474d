// `bun run image`: builds zonetime:latest (and zonetime:<package version>) from
// server/deploy/Dockerfile with podman, or docker where that is what the machine has, then
// makes sure the engine has every other image server/deploy/'s files run (Redis, nginx:
// deployment-images.ts), so that `podman kube play server/deploy/kubernetes.yaml` and
// `podman-compose -f server/deploy/compose.yaml up` run right after it.
//
// The base image is the Dockerfile's own (oven/bun, pinned by version). When the engine
// does not have it and cannot pull it (no registry reachable), scripts/image/stand-in-base.ts
// makes a stand-in under the same name from Debian packages and Bun from npm.
//
// A machine that reaches its package registry through a private CA (SSL_CERT_FILE or
// NODE_EXTRA_CA_CERTS, as corporate proxies need) hands that bundle to the build as a
// secret (`--secret id=ca`): mounted for the `bun install` step alone, never in a layer.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { containerEngine, engineRun, hasImage, type ContainerEngine } from "./container-engine.ts";
import { serviceImages } from "./deployment-images.ts";
import { makeStandInBase } from "./stand-in-base.ts";
import { ensureServiceImage } from "./stand-in-services.ts";

const ROOT = join(import.meta.dir, "..", "..");
export const DOCKERFILE = join(ROOT, "server", "deploy", "Dockerfile");
export const IMAGE = "zonetime:latest";

/** The image the Dockerfile's stages start from (its first FROM). */
export function baseImageOf(dockerfile: string): string {
  const m = /^FROM\s+(\S+)/m.exec(readFileSync(dockerfile, "utf8"));
  if (!m) throw new Error(`${dockerfile} has no FROM`);
  return m[1]!;
}

function pull(engine: ContainerEngine, image: string): boolean {
  const r = Bun.spawnSync([engine.path, "pull", "--quiet", image], { env: engine.env, stdout: "ignore", stderr: "pipe", timeout: 120_000 });
  return r.exitCode === 0;
}

/** The private CA bundle to hand the build, if this machine uses one. */
function caBundle(): string | null {
  for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE"]) {
    const path = process.env[name];
    if (path && existsSync(path)) return path;
  }
  return null;
}

export function buildImage(options: { tags?: string[] } = {}): { engine: ContainerEngine; seconds: number; bytes: number } {
  const engine = containerEngine();
  if (!engine) throw new Error("neither podman nor docker is installed (scripts/bootstrap.sh --test installs podman)");
  const base = baseImageOf(DOCKERFILE);
  if (!hasImage(engine, base) && !pull(engine, base)) makeStandInBase(engine, base);
  const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const tags = options.tags ?? [IMAGE, `zonetime:${version}`];
  const args = ["build", "--file", DOCKERFILE, "--ignorefile", `${DOCKERFILE}.dockerignore`, ...tags.flatMap((t) => ["--tag", t])];
  if (engine.name === "podman") args.push("--format", "docker", "--pull=never", "--network=host");
  const ca = caBundle();
  if (ca) args.push("--secret", `id=ca,src=${ca}`);
  if (process.env.SITE_URL) args.push("--build-arg", `SITE_URL=${process.env.SITE_URL}`);
  if (engine.name === "docker") args.splice(args.indexOf("--ignorefile"), 2); // docker reads Dockerfile.dockerignore beside the Dockerfile itself
  args.push(ROOT);
  const started = performance.now();
  const r = Bun.spawnSync([engine.path, ...args], { env: engine.env, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error(`${engine.name} build failed (exit ${r.exitCode})`);
  const seconds = (performance.now() - started) / 1000;
  const size = engineRun(engine, ["image", "inspect", "--format", "{{.Size}}", tags[0]!]);
  return { engine, seconds, bytes: Number(size.stdout.trim()) };
}

/** Each image the deployment files run that is not ours: present, pulled, or made from Debian. The ones made here. */
export function ensureServiceImages(engine: ContainerEngine): string[] {
  return serviceImages().filter((image) => ensureServiceImage(engine, image));
}

if (import.meta.main) {
  const { engine, seconds, bytes } = buildImage();
  console.log(`image: ${IMAGE} built with ${engine.name} in ${seconds.toFixed(0)} s, ${(bytes / 1e6).toFixed(0)} MB`);
  for (const image of serviceImages()) console.log(`image: ${image} ${ensureServiceImage(engine, image) ? "made from Debian" : "present"}`);
}
