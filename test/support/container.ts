// The image built by `bun run image` and run the way server/deploy/kubernetes.yaml runs
// it: the manifest's user, read-only root, dropped capabilities and environment become
// podman's (or docker's) flags, so the test runs what the manifest says.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { containerEngine, engineRun, engineRunAsync, type ContainerEngine } from "../../scripts/image/container-engine.ts";
import { ROOT } from "./test-server.ts";

export const MANIFEST = join(ROOT, "server", "deploy", "kubernetes.yaml");

/** The Deployment's pod spec and its first container, as written in the manifest. */
export function manifestContainer(): { pod: any; container: any } {
  const docs = Bun.YAML.parse(readFileSync(MANIFEST, "utf8")) as any[];
  const deployment = docs.find((d) => d.kind === "Deployment" && d.metadata.name === "zonetime");
  return { pod: deployment.spec.template.spec, container: deployment.spec.template.spec.containers[0] };
}

/** `run` flags for the manifest's security context and environment; `env` overrides (a port on the host network). */
export function manifestRunFlags(env: Record<string, string>, engineName: "podman" | "docker" = "podman"): string[] {
  const { pod, container } = manifestContainer();
  const security = { ...pod.securityContext, ...container.securityContext };
  const flags = ["--network=host", "--no-healthcheck"];
  if (security.runAsUser !== undefined) flags.push("--user", `${security.runAsUser}:${security.runAsGroup ?? security.runAsUser}`);
  // podman adds writable tmpfs on /tmp, /run and /var/tmp to --read-only unless told not to; Kubernetes does not.
  if (security.readOnlyRootFilesystem) flags.push("--read-only", ...(engineName === "podman" ? ["--read-only-tmpfs=false"] : []));
  for (const cap of security.capabilities?.drop ?? []) flags.push(`--cap-drop=${cap}`);
  if (security.allowPrivilegeEscalation === false) flags.push("--security-opt=no-new-privileges");
  const vars: Record<string, string> = Object.fromEntries((container.env ?? []).map((e: { name: string; value: string }) => [e.name, e.value]));
  for (const [name, value] of Object.entries({ ...vars, ...env })) flags.push("--env", `${name}=${value}`);
  return flags;
}

export const COMPOSE = join(ROOT, "server", "deploy", "compose.yaml");

/** compose.yaml's services, merge keys resolved. */
export function composeServices(): Record<string, any> {
  return (Bun.YAML.parse(readFileSync(COMPOSE, "utf8")) as { services: Record<string, any> }).services;
}

/** `run` flags for a compose service (the keys compose.yaml uses); `env` overrides its environment. */
export function composeRunFlags(service: any, env: Record<string, string>, engineName: "podman" | "docker" = "podman"): string[] {
  const known = new Set(["image", "network_mode", "user", "read_only", "cap_drop", "security_opt", "environment", "stop_grace_period", "depends_on", "restart"]);
  for (const key of Object.keys(service)) if (!known.has(key)) throw new Error(`compose.yaml: the test does not know how to run "${key}"`);
  const flags = ["--no-healthcheck"];
  if (service.network_mode) flags.push(`--network=${service.network_mode}`);
  if (service.user) flags.push("--user", service.user);
  if (service.read_only) flags.push("--read-only", ...(engineName === "podman" ? ["--read-only-tmpfs=false"] : []));
  for (const cap of service.cap_drop ?? []) flags.push(`--cap-drop=${cap}`);
  for (const opt of service.security_opt ?? []) flags.push(`--security-opt=${opt}`);
  if (service.stop_grace_period) flags.push("--stop-timeout", String(Number.parseInt(service.stop_grace_period)));
  for (const [name, value] of Object.entries({ ...service.environment, ...env })) flags.push("--env", `${name}=${value}`);
  return flags;
}

export interface Container {
  name: string;
  engine: ContainerEngine;
  logs: () => string;
  remove: () => void;
}

export function runContainer(engine: ContainerEngine, image: string, flags: string[], command: string[] = []): Container {
  const name = `zonetime-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const r = engineRun(engine, ["run", "--detach", "--name", name, ...flags, image, ...command]);
  if (!r.ok) throw new Error(`${engine.name} run failed: ${r.stderr}`);
  return {
    name,
    engine,
    logs: () => {
      const l = engineRun(engine, ["logs", name]);
      return l.stdout + l.stderr;
    },
    remove: () => void engineRun(engine, ["rm", "--force", "--time", "0", name]),
  };
}

export { containerEngine, engineRun, engineRunAsync };
