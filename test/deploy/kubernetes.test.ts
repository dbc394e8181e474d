// server/deploy/kubernetes.yaml run by `podman kube play` right after `bun run image`: three
// zonetime pods and one Redis pod, each replica ready through the manifest's own probes,
// nginx (the repository's nginx.conf) as the load balancer over the pods, one rate limit
// shared through Redis, one replica killed under wrk without a failed request, then
// `podman kube down` leaves nothing behind.
//
// What podman's subset of Kubernetes lacks, and what this test does in its place (the
// manifest is played as written but for the three changes named below):
// - Services: podman plays Pods and Deployments only (no cluster DNS, no ClusterIP). The
//   zonetime Service's part (spreading requests over ready pods) is nginx's, as an Ingress's
//   would be; the zonetime-redis Service's part (a stable name) is a hosts entry
//   `zonetime-redis` -> the Redis pod's address, given to every pod through podman's
//   base_hosts_file, the Redis pod's address fixed with `--ip` on a network of the test's own.
// - Probes: podman turns them into healthchecks run by systemd timers, and there is no
//   systemd here (podman logs "unable to get systemd connection to add healthchecks"), so the
//   test does the kubelet's part: it sends each pod's readinessProbe and livenessProbe as
//   the manifest writes them (httpGet path and named port) and puts a pod behind nginx only
//   once its readiness probe answers 200.
// - Ports: podman 4.3 publishes each containerPort on the host as if it were a hostPort, so
//   the three replicas would fight over :8080. The played copy leaves `ports` out; the pods
//   are reached on their own addresses, and the probes' named port is read from the manifest.
// - The played copy sets RATE_LIMIT to 10/60s (the count measured here; the manifest's
//   120/60s is a public default) and RATE_LIMIT_STORE_TIMEOUT_MS to 100 (on 2 shared cores
//   Redis's answer can miss the default 5 ms, and a request decided locally would blur the count).
//
// A replica killed with SIGKILL (its process, as a crash would) comes back by its restart
// policy (the Deployment's Always), as a kubelet would restart it.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { containerEngine, engineRun, engineRunAsync, type ContainerEngine } from "../../scripts/image/container-engine.ts";
import { KUBERNETES } from "../../scripts/image/deployment-images.ts";
import { startNginx } from "../support/nginx.ts";
import { requireTool } from "../support/require-tool.ts";
import { ROOT } from "../support/test-server.ts";
import { parseWrk } from "../support/wrk-report.ts";

const found = containerEngine();
if (found === null || found.name !== "podman") throw new Error("podman is not installed: run scripts/bootstrap.sh --test");
const podman: ContainerEngine = found;

const manifest = readFileSync(KUBERNETES, "utf8");
const docs = Bun.YAML.parse(manifest) as any[];
const deployment = docs.find((d) => d.kind === "Deployment" && d.metadata.name === "zonetime");
const redisDeployment = docs.find((d) => d.kind === "Deployment" && d.metadata.name === "zonetime-redis");
const redisService = docs.find((d) => d.kind === "Service" && d.metadata.name === "zonetime-redis");
const container = deployment.spec.template.spec.containers[0];
const replicas: number = deployment.spec.replicas;
const portOf = (name: string) => container.ports.find((p: { name: string }) => p.name === name).containerPort as number;

// A network of the test's own, on a /24 no other podman network uses.
const NETWORK = `zonetime-kube-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), "zonetime-kube-"));
const playedFile = join(work, "kubernetes.yaml");
let subnet = "";
let podIps: string[] = [];
let redisIp = "";
let env: Record<string, string | undefined> = {};
const timings: string[] = [];
let played = false;

/** podman kube play's pod names: `<Deployment>-pod-<i>`, its containers `<pod>-<container>`. */
const podName = (i: number) => `${deployment.metadata.name}-pod-${i}`;
const containerName = (i: number) => `${podName(i)}-${container.name}`;

function run(args: string[]): { ok: boolean; stdout: string; stderr: string } {
  return engineRun({ ...podman, env }, args);
}

async function timed<T>(label: string, f: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await f();
  } finally {
    timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/**
 * The manifest as played here: RATE_LIMIT and RATE_LIMIT_STORE_TIMEOUT_MS set for the count
 * measured, and no container `ports` (podman 4.3 publishes every containerPort on the host
 * as if it were a hostPort, so three replicas would fight over :8080; the pods are reached on
 * their own addresses, as a Service reaches them, and the probes' named ports are resolved
 * from the manifest as written). Each document as JSON, which YAML reads as it is.
 */
function playedManifest(): string {
  const copy = structuredClone(docs);
  const zonetime = copy.find((d) => d.kind === "Deployment" && d.metadata.name === "zonetime").spec.template.spec.containers[0];
  for (const [name, value] of [["RATE_LIMIT", "10/60s"], ["RATE_LIMIT_STORE_TIMEOUT_MS", "100"]]) {
    const entry = zonetime.env.find((e: { name: string }) => e.name === name);
    if (entry === undefined) throw new Error(`kubernetes.yaml does not set ${name}`);
    entry.value = value;
  }
  for (const d of copy) for (const c of d.spec?.template?.spec?.containers ?? []) delete c.ports;
  return copy.map((d) => JSON.stringify(d)).join("\n---\n");
}

/** A free 10.x.y.0/24 for the test's network. */
function freeSubnet(): string {
  const used = engineRun(podman, ["network", "ls", "--format", "{{range .Subnets}}{{.Subnet}} {{end}}"]).stdout;
  for (;;) {
    const candidate = `10.${100 + Math.floor(Math.random() * 100)}.${Math.floor(Math.random() * 256)}`;
    if (!used.includes(`${candidate}.`)) return candidate;
  }
}

/** Sends a probe as a kubelet would: GET path on the pod's address and the named port; its status, 0 when unanswered. */
async function probe(ip: string, spec: { httpGet: { path: string; port: string } }): Promise<number> {
  return fetch(`http://${ip}:${portOf(spec.httpGet.port)}${spec.httpGet.path}`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status, () => 0);
}

function diagnostics(): string {
  const names = run(["ps", "-a", "--filter", "label=io.kubernetes.pod.name", "--format", "{{.Names}} {{.Status}}"]).stdout;
  const logs = [...Array(replicas).keys()].map((i) => `--- ${containerName(i)}\n${run(["logs", "--tail", "10", containerName(i)]).stdout}`).join("\n");
  return `${names}\n${logs}`;
}

beforeAll(async () => {
  // The operator's first step, as written: builds zonetime and makes the Redis (and nginx) images.
  await timed("bun run image", () => {
    const r = Bun.spawnSync(["bun", "run", "image"], { cwd: ROOT, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error(`bun run image exited ${r.exitCode}`);
  });
  subnet = freeSubnet();
  podIps = [...Array(replicas).keys()].map((i) => `${subnet}.${10 + i}`);
  redisIp = `${subnet}.100`;
  // The Service name as cluster DNS would answer it, for every pod.
  writeFileSync(join(work, "hosts"), `${redisIp} ${redisService.metadata.name}\n`);
  writeFileSync(join(work, "containers.conf"), readFileSync(join(ROOT, "scripts", "image", "containers.conf"), "utf8")
    .replace(/^\[containers\]$/m, `[containers]\nbase_hosts_file = "${join(work, "hosts")}"`));
  env = { ...podman.env, CONTAINERS_CONF: join(work, "containers.conf") };
  writeFileSync(playedFile, playedManifest());
  const created = run(["network", "create", "--subnet", `${subnet}.0/24`, NETWORK]);
  if (!created.ok) throw new Error(`podman network create: ${created.stderr}`);
}, 1_200_000);

afterAll(async () => {
  if (played) run(["kube", "down", playedFile]);
  run(["network", "rm", "--force", NETWORK]);
  rmSync(work, { recursive: true, force: true });
  console.log(`kubernetes timings: ${timings.join("; ")}`);
}, 120_000);

describe("kubernetes.yaml under podman kube play", () => {
  test(`${replicas} replicas ready through their probes behind nginx; one shared limit (10 of 40); a replica killed under wrk: only 200s and 429s, no socket error; kube down leaves nothing`, async () => {
    // The documents podman plays in order: the zonetime pods take the first addresses, Redis the last.
    const ips = [...podIps, redisIp].flatMap((ip) => ["--ip", ip]);
    const play = await timed("podman kube play", () => engineRunAsync({ ...podman, env }, ["kube", "play", "--network", NETWORK, ...ips, playedFile]));
    played = true;
    if (!play.ok) throw new Error(`podman kube play failed:\n${play.stdout}${play.stderr}`);
    const pods = run(["pod", "ps", "--format", "{{.Name}}", "--filter", `network=${NETWORK}`]).stdout.split("\n").filter(Boolean).sort();
    expect(pods).toEqual([...[...Array(replicas).keys()].map(podName), `${redisDeployment.metadata.name}-pod-0`].sort());

    // Ready through the manifest's probes, as the kubelet would ask them.
    await timed("all replicas ready", async () => {
      for (const ip of podIps) {
        for (const deadline = Date.now() + 90_000; (await probe(ip, container.readinessProbe)) !== 200; await Bun.sleep(250)) {
          if (Date.now() > deadline) throw new Error(`pod ${ip} never ready:\n${diagnostics()}`);
        }
        expect(await probe(ip, container.livenessProbe)).toBe(200);
      }
    });
    // Each replica reaches Redis by the Service's name.
    await timed("all replicas on the shared store", async () => {
      for (const ip of podIps) {
        for (const deadline = Date.now() + 30_000; ; await Bun.sleep(250)) {
          const health = await fetch(`http://${ip}:${portOf("http")}/health`).then((r) => r.json() as Promise<{ rate_limit_store: { state: string } }>);
          if (health.rate_limit_store.state === "up") break;
          if (Date.now() > deadline) throw new Error(`pod ${ip}: store ${health.rate_limit_store.state}:\n${diagnostics()}`);
        }
      }
    });

    const nginx = await startNginx(podIps.map((ip) => `${ip}:${portOf("http")}`));
    try {
      // One client (nginx's peer address, in X-Forwarded-For) spread round-robin over the three pods.
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await fetch(`http://127.0.0.1:${nginx.port}/timezone/UTC`)).status);
      const allowed = statuses.filter((s) => s === 200).length;
      const served = await Promise.all(podIps.map(async (ip) => {
        const metrics = await (await fetch(`http://${ip}:${portOf("http")}/metrics`)).text();
        return Number(/^zonetime_requests_total\{route="timezone",status="200"\} (\d+)/m.exec(metrics)?.[1] ?? 0) + Number(/^zonetime_requests_total\{route="timezone",status="429"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
      }));
      console.log(`kubernetes: ${allowed} of 40 allowed through nginx (RATE_LIMIT 10/60s); answers by pod ${JSON.stringify(served)}`);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(allowed).toBe(10);
      for (const n of served) expect(n).toBeGreaterThan(0); // every pod took its share: one limit, not three

      // wrk through nginx; one replica killed (SIGKILL) 3 s in.
      const script = join(ROOT, "scripts", "bench", "rate-store.lua");
      const wrk = Bun.spawn([requireTool("wrk"), "-t2", "-c16", "-d10s", "-s", script, `http://127.0.0.1:${nginx.port}/timezone/Europe/London`], { stdout: "pipe", stderr: "pipe" });
      await Bun.sleep(3000);
      // SIGKILL to the replica's process, as a crash or the OOM killer would: `podman kill`
      // counts as stopped by the user, and the restart policy would then leave it down.
      const pid = Number(run(["inspect", "--format", "{{.State.Pid}}", containerName(1)]).stdout.trim());
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, "SIGKILL");
      const out = await new Response(wrk.stdout).text();
      expect(await wrk.exited).toBe(0);
      const report = parseWrk(out);
      const byStatus = Object.fromEntries([...out.matchAll(/^status (\d+) (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
      const failovers = nginx.errorLog().split("\n").filter((l) => l.includes("upstream")).length;
      console.log(`kubernetes: wrk with ${containerName(1)} killed at 3 s: ${report.requests} requests, by status ${JSON.stringify(byStatus)}, socket errors ${JSON.stringify(report.socketErrors)}; nginx logged ${failovers} upstream errors (retried on another pod)`);
      expect(Object.keys(byStatus).filter((s) => s !== "200" && s !== "429")).toEqual([]);
      expect(report.socketErrors).toEqual({ connect: 0, read: 0, write: 0, timeout: 0 });
      expect(report.requests).toBeGreaterThan(1000);
      expect(failovers).toBeGreaterThan(0); // the kill was felt: nginx found the pod gone and went on
      // The restart policy brings it back, ready again.
      for (const deadline = Date.now() + 60_000; (await probe(podIps[1]!, container.readinessProbe)) !== 200; await Bun.sleep(250)) {
        if (Date.now() > deadline) throw new Error(`the killed replica never came back:\n${diagnostics()}`);
      }
      expect(Number(run(["inspect", "--format", "{{.RestartCount}}", containerName(1)]).stdout.trim())).toBeGreaterThanOrEqual(1);
    } finally {
      await nginx.stop();
    }

    const down = await timed("podman kube down", () => engineRunAsync({ ...podman, env }, ["kube", "down", playedFile]));
    expect(down.ok).toBe(true);
    played = false;
    expect(run(["pod", "ps", "--format", "{{.Name}}", "--filter", `network=${NETWORK}`]).stdout.trim()).toBe("");
    expect(run(["ps", "-a", "--format", "{{.Names}}"]).stdout.split("\n").filter((n) => [...Array(replicas).keys()].some((i) => n.startsWith(podName(i))))).toEqual([]);
  }, 600_000);
});
