// Which container engine builds and runs the image here: podman where it is installed
// (Debian's, as on the project's machines), else docker. For podman, CONTAINERS_CONF
// points at scripts/image/containers.conf (runc, no default ulimits) unless the operator
// set it, so that nothing under /etc has to change.

import { join } from "node:path";

export interface ContainerEngine {
  name: "podman" | "docker";
  path: string;
  /** The environment every engine command runs with. */
  env: Record<string, string | undefined>;
}

const CONTAINERS_CONF = join(import.meta.dir, "containers.conf");
const SEARCH_PATH = `${process.env.PATH ?? ""}:/usr/sbin:/sbin:/usr/bin:/bin`;

export function containerEngine(): ContainerEngine | null {
  const podman = Bun.which("podman", { PATH: SEARCH_PATH });
  if (podman) return { name: "podman", path: podman, env: { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF } };
  const docker = Bun.which("docker", { PATH: SEARCH_PATH });
  if (docker) return { name: "docker", path: docker, env: { ...process.env, DOCKER_BUILDKIT: "1" } };
  return null;
}

/** Runs `engine args...`; the output, or an error carrying stderr. */
export function engineRun(engine: ContainerEngine, args: string[], options: { input?: Blob; quiet?: boolean } = {}): { ok: boolean; stdout: string; stderr: string } {
  const r = Bun.spawnSync([engine.path, ...args], { env: engine.env, stdin: options.input ?? "ignore", stdout: "pipe", stderr: "pipe" });
  return { ok: r.exitCode === 0, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/**
 * `engine args...` without blocking the event loop: what a test needs while it also drives
 * load from the same process (engineRun freezes every socket of the caller until it returns).
 */
export async function engineRunAsync(engine: ContainerEngine, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const child = Bun.spawn([engine.path, ...args], { env: engine.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { ok: code === 0, stdout, stderr };
}

/** True when the engine has an image by that name locally. */
export function hasImage(engine: ContainerEngine, name: string): boolean {
  return engineRun(engine, ["image", "inspect", "--format", "{{.Id}}", name]).ok;
}
