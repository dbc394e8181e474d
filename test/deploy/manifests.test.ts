// The Dockerfile and the Kubernetes manifests agree with the service: ports, probe
// paths that really answer, environment variables the configuration knows and accepts,
// and objects that point at each other.

import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_VARIABLES, readConfig } from "../../server/process/config.ts";
import { freePort } from "../support/free-port.ts";
import { requireTool } from "../support/require-tool.ts";
import { ROOT, testHandler } from "../support/test-server.ts";

const DEPLOY = join(ROOT, "server", "deploy");
const dockerfile = readFileSync(join(DEPLOY, "Dockerfile"), "utf8");
const manifests = Bun.YAML.parse(readFileSync(join(DEPLOY, "kubernetes.yaml"), "utf8")) as any[];
const byKind = (kind: string, name = "zonetime") => manifests.find((m) => m.kind === kind && m.metadata.name === name);

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 120_000);

/** Dockerfile instructions, continuation lines joined. */
function instructions(text: string): { op: string; args: string }[] {
  return text.replace(/\\\n\s*/g, " ").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"))
    .map((l) => ({ op: l.split(/\s+/)[0]!.toUpperCase(), args: l.slice(l.indexOf(" ") + 1).trim() }));
}

describe("Dockerfile", () => {
  const ins = instructions(dockerfile);
  const runtime = ins.slice(ins.map((i) => i.op).lastIndexOf("FROM"));
  const env = Object.fromEntries(runtime.filter((i) => i.op === "ENV").flatMap((i) => i.args.split(/\s+/).map((kv) => kv.split("=") as [string, string])));

  test("exposes the port the service listens on, and only known variables are set, all valid", () => {
    const exposed = Number(runtime.find((i) => i.op === "EXPOSE")!.args);
    expect(exposed).toBe(Number(env.PORT));
    for (const name of Object.keys(env)) expect(CONFIG_VARIABLES as readonly string[]).toContain(name);
    expect(readConfig({ ...env, DATA_DIR: env.DATA_DIR }).port).toBe(exposed);
  });
  test("runs the service entry, copies what exists, builds the tables in the build stage", () => {
    const cmd = JSON.parse(runtime.find((i) => i.op === "CMD")!.args) as string[];
    expect(cmd.slice(0, 2)).toEqual(["bun", "server/process/main.ts"]);
    expect(existsSync(join(ROOT, cmd[1]!))).toBe(true);
    for (const copy of ins.filter((i) => i.op === "COPY" && !i.args.startsWith("--from"))) {
      for (const source of copy.args.split(/\s+/).slice(0, -1)) expect(existsSync(join(ROOT, source))).toBe(true);
    }
    expect(ins.some((i) => i.op === "RUN" && i.args.endsWith("bun run build"))).toBe(true);
    expect(runtime.find((i) => i.op === "HEALTHCHECK")!.args).toContain(`127.0.0.1:${env.PORT}/health/live`);
  });
});

describe("Kubernetes manifests", () => {
  const deployment = byKind("Deployment");
  const container = deployment.spec.template.spec.containers[0];
  const env = Object.fromEntries(container.env.map((e: { name: string; value: string }) => [e.name, e.value]));

  test("a Deployment, a Service, a HorizontalPodAutoscaler and a PodDisruptionBudget; Redis for the shared limits", () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual([
      "Deployment/zonetime", "Service/zonetime", "HorizontalPodAutoscaler/zonetime", "PodDisruptionBudget/zonetime",
      "Deployment/zonetime-redis", "Service/zonetime-redis",
    ]);
    expect(deployment.spec.replicas).toBeGreaterThan(1);
  });
  test("RATE_LIMIT_STORE names the Redis Service; that Deployment's command runs a real redis-server that the store uses", async () => {
    const store = new URL(env.RATE_LIMIT_STORE);
    const service = byKind("Service", "zonetime-redis");
    expect(store.hostname).toBe(service.metadata.name);
    expect(Number(store.port)).toBe(service.spec.ports[0].port);
    const redis = byKind("Deployment", "zonetime-redis").spec.template.spec.containers[0];
    expect(service.spec.ports[0].targetPort).toBe(redis.ports[0].name);
    expect(redis.ports[0].containerPort).toBe(service.spec.ports[0].port);
    // The manifest's own arguments, on a free port of this machine.
    const args = [...redis.args] as string[];
    expect(args[0]).toBe("redis-server");
    const port = await freePort();
    args[args.indexOf("--port") + 1] = String(port);
    const server = Bun.spawn([requireTool("redis-server"), ...args.slice(1), "--bind", "127.0.0.1"], { stdout: "pipe", stderr: "pipe" });
    try {
      const client = new Bun.RedisClient(`redis://127.0.0.1:${port}`);
      for (let i = 0; ; i++) {
        try {
          await client.connect();
          break;
        } catch (error) {
          if (i > 100 || server.exitCode !== null) throw error;
          await Bun.sleep(50);
        }
      }
      // RESP3: a map, which Bun's client gives as an object.
      const info = await client.send("CONFIG", ["GET", "maxmemory-policy"]);
      expect({ ...info }).toEqual({ "maxmemory-policy": "volatile-ttl" });
      client.close();
    } finally {
      server.kill();
    }
  });
  test("the container port is the configured PORT; every variable is known and valid", () => {
    expect(container.ports[0].containerPort).toBe(Number(env.PORT));
    for (const name of Object.keys(env)) expect(CONFIG_VARIABLES as readonly string[]).toContain(name);
    const config = readConfig(env);
    expect(config.port).toBe(container.ports[0].containerPort);
    expect(config.trustedProxies.length).toBeGreaterThan(0);
  });
  test("probes point at paths that answer 200 on the named port", () => {
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      expect(probe.httpGet.port).toBe(container.ports[0].name);
      expect(handle(new Request(`http://pod${probe.httpGet.path}`)).status).toBe(200);
    }
    expect(container.readinessProbe.httpGet.path).toBe("/health/ready");
    expect(container.livenessProbe.httpGet.path).toBe("/health/live");
  });
  test("the Service, the autoscaler and the disruption budget select this Deployment's pods", () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    const service = byKind("Service");
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0].targetPort).toBe(container.ports[0].name);
    const hpa = byKind("HorizontalPodAutoscaler");
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: deployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(byKind("PodDisruptionBudget").spec.minAvailable + 1);
    expect(byKind("PodDisruptionBudget").spec.selector.matchLabels).toEqual(labels);
  });
  test("the grace period outlasts preStop plus the drain deadline", () => {
    const preStop = Number(container.lifecycle.preStop.exec.command[1]);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(preStop + Number(env.DRAIN_SECONDS));
  });
});

test("the README documents every configuration variable", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  const documented = [...table.matchAll(/^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \|/gm)].flatMap((m) => m[1]!.split(", ").map((n) => n.slice(1, -1)));
  expect(documented.sort()).toEqual([...CONFIG_VARIABLES].sort());
});
