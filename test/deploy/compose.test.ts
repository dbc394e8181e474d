// server/deploy/compose.yaml as shipped, run by podman-compose: `up`, one client through the
// file's nginx gets exactly the file's RATE_LIMIT across both replicas (the limit lives in
// the file's Redis), both replicas served it, then `down` leaves no container behind.
//
// How it runs here, and why:
// - The file uses host networking and fixed ports (nginx 8080, replicas 8081/8082, Redis
//   6379). On a shared machine those may be taken, so the whole project runs in a network
//   namespace of its own (`unshare -n`; "host" is then that namespace), with the client in
//   it too. Needs root, as podman here does.
// - Debian's podman-compose is 1.0.3, which cannot run `network_mode: host`
//   (containers/podman-compose#397): it runs through scripts/image/podman-compose-host-network.
// - No registry is reachable: the Redis and nginx images are made under their official
//   names from Debian's packages of the same versions (scripts/image/stand-in-services.ts)
//   when missing, and removed again afterwards if this test made them.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Subprocess } from "bun";
import { buildImage } from "../../scripts/image/build-image.ts";
import { composeServiceImages, ensureServiceImage } from "../../scripts/image/stand-in-services.ts";
import { COMPOSE, containerEngine, engineRun } from "../support/container.ts";
import { ROOT } from "../support/test-server.ts";

const engine = containerEngine();
if (engine === null) throw new Error("podman is not installed: run scripts/bootstrap.sh --test");
const podmanCompose = Bun.which("podman-compose");
if (podmanCompose === null) throw new Error("podman-compose is not installed: run scripts/bootstrap.sh --test");
const WRAPPER = join(ROOT, "scripts", "image", "podman-compose-host-network");
const PROJECT = `zonetime-compose-${process.pid}`;
/** The client's own address in the namespace: not loopback, so nginx's X-Forwarded-For names a real client. */
const CLIENT = "192.0.2.10";

const compose = Bun.YAML.parse(readFileSync(COMPOSE, "utf8")) as { services: Record<string, any> };
const replicas = Object.entries(compose.services).filter(([, s]) => /^(localhost\/)?zonetime:/.test(s.image)).map(([name]) => name);
const limit = Number(/^(\d+)\//.exec(compose.services[replicas[0]!].environment.RATE_LIMIT)![1]);
const replicaPorts = replicas.map((name) => Number(compose.services[name].environment.PORT));
const nginxPort = Number(/listen\s+(\d+);/.exec(readFileSync(join(dirname(COMPOSE), "nginx.conf"), "utf8"))![1]);

let holder: Subprocess | null = null;
const madeImages: string[] = [];
const timings: string[] = [];

function timed<T>(label: string, f: () => T): T {
  const started = performance.now();
  try {
    return f();
  } finally {
    timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** Runs argv inside the project's network namespace. */
function inNamespace(argv: string[]): { ok: boolean; stdout: string; stderr: string } {
  const r = Bun.spawnSync(["nsenter", `--net=/proc/${holder!.pid}/ns/net`, ...argv], { env: engine!.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { ok: r.exitCode === 0, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

function podmanComposeRun(verb: string[]) {
  return inNamespace([podmanCompose!, "--podman-path", WRAPPER, "-p", PROJECT, "-f", COMPOSE, ...verb]);
}

/** A bun script run in the namespace; its stdout parsed as JSON. */
function clientInNamespace(script: string): any {
  const r = inNamespace([process.execPath, "-e", script]);
  if (!r.ok) throw new Error(`client failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Each project container's state and the end of its log: what a failure needs to be understood. */
function diagnostics(): string {
  return projectContainers().map((name) => {
    const state = engineRun(engine!, ["inspect", "--format", "{{.State.Status}} exit {{.State.ExitCode}} restarts {{.RestartCount}}", name]).stdout.trim();
    const logs = engineRun(engine!, ["logs", "--tail", "15", name]);
    return `--- ${name}: ${state}\n${logs.stdout}${logs.stderr}`;
  }).join("\n");
}

const projectContainers = () => engineRun(engine!, ["ps", "-a", "--filter", `label=io.podman.compose.project=${PROJECT}`, "--format", "{{.Names}}"]).stdout.split("\n").filter(Boolean);

beforeAll(() => {
  timed("bun run image (zonetime:latest)", () => buildImage());
  for (const image of composeServiceImages(COMPOSE)) {
    if (timed(`stand-in ${image}`, () => ensureServiceImage(engine!, image))) madeImages.push(image);
  }
  holder = Bun.spawn(["unshare", "--net", "sleep", "infinity"], { stdout: "ignore", stderr: "inherit" });
  // Until unshare has run, the child is still in this namespace: wait for its own.
  const ours = readlinkSync("/proc/self/ns/net");
  for (const deadline = Date.now() + 5000; readlinkSync(`/proc/${holder.pid}/ns/net`) === ours; Bun.sleepSync(10)) {
    if (Date.now() > deadline) throw new Error("unshare --net did not make a namespace");
  }
  for (const argv of [["ip", "link", "set", "lo", "up"], ["ip", "addr", "add", `${CLIENT}/32`, "dev", "lo"]]) {
    const r = inNamespace(argv);
    if (!r.ok) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
  }
}, 900_000);

afterAll(() => {
  if (holder !== null) {
    if (projectContainers().length > 0) podmanComposeRun(["down"]);
    for (const name of projectContainers()) engineRun(engine!, ["rm", "--force", "--time", "0", name]);
    // podman-compose 1.0.3 makes the project's default network even for host-networked services.
    engineRun(engine!, ["network", "rm", `${PROJECT}_default`]);
    holder.kill();
  }
  for (const image of madeImages) engineRun(engine!, ["rmi", image]);
  console.log(`compose timings: ${timings.join("; ")}`);
});

describe("compose.yaml, as shipped", () => {
  test("podman-compose up; one client through its nginx gets its RATE_LIMIT across both replicas (Redis); podman-compose down", async () => {
    expect(replicas.length).toBe(2);
    const up = timed("podman-compose up -d", () => podmanComposeRun(["up", "-d"]));
    expect(up.stdout + up.stderr).not.toMatch(/^Error/m);
    expect(projectContainers().length).toBe(Object.keys(compose.services).length);

    // Ready: both replicas report the shared store up, and nginx answers.
    const ready = clientInNamespace(`
      const deadline = Date.now() + 60000;
      const urls = ${JSON.stringify(replicaPorts.map((p) => `http://127.0.0.1:${p}/health`))};
      let states = [];
      for (;;) {
        states = await Promise.all(urls.map((u) => fetch(u).then((r) => r.json()).then((h) => h.rate_limit_store.state, () => "down")));
        const proxied = await fetch("http://${CLIENT}:${nginxPort}/health/ready").then((r) => r.status, () => 0);
        if ((states.every((s) => s === "up") && proxied === 200) || Date.now() > deadline) break;
        await Bun.sleep(200);
      }
      console.log(JSON.stringify(states));`);
    if (ready.some((s: string) => s !== "up")) console.error(diagnostics());
    expect(ready).toEqual(replicas.map(() => "up"));

    // limit + 20 requests from one client through nginx (round-robin over the two replicas).
    const result = clientInNamespace(`
      const statuses = [];
      for (let i = 0; i < ${limit + 20}; i++) statuses.push((await fetch("http://${CLIENT}:${nginxPort}/timezone/UTC")).status);
      const served = [], fallbacks = [];
      for (const port of ${JSON.stringify(replicaPorts)}) {
        const metrics = await (await fetch("http://127.0.0.1:" + port + "/metrics")).text();
        served.push(Number(/^zonetime_requests_total\\{route="timezone",status="200"\\} (\\d+)/m.exec(metrics)?.[1] ?? 0));
        fallbacks.push(Number(/^zonetime_rate_store_fallbacks_total (\\d+)/m.exec(metrics)![1]));
      }
      console.log(JSON.stringify({ statuses, served, fallbacks }));`);
    const sent = limit + 20;
    const allowed = result.statuses.filter((s: number) => s === 200).length;
    const fallbacks = result.fallbacks.reduce((a: number, b: number) => a + b, 0);
    console.log(`compose: ${allowed} of ${sent} allowed through nginx (RATE_LIMIT ${limit}/60s); 200s by replica ${JSON.stringify(result.served)}; store fallbacks ${fallbacks}`);
    expect(result.statuses.filter((s: number) => s !== 200 && s !== 429)).toEqual([]);
    // Redis decides each request; one it did not answer within the few-millisecond budget
    // (a busy machine) is decided by that replica's own limiter, which allows it and counts
    // a fallback (Redis may still have counted it). Per-replica limits alone would have
    // allowed all of them.
    expect(sent - fallbacks).toBeGreaterThanOrEqual(limit); // Redis saw enough to run out
    expect(allowed).toBeGreaterThanOrEqual(limit);
    expect(allowed).toBeLessThanOrEqual(limit + fallbacks);
    for (const n of result.served) expect(n).toBeGreaterThan(0);
    expect(result.served.reduce((a: number, b: number) => a + b, 0)).toBe(allowed);

    const down = timed("podman-compose down", () => podmanComposeRun(["down"]));
    expect(down.stdout + down.stderr).not.toMatch(/^Error/m);
    expect(projectContainers()).toEqual([]);
  }, 300_000);
});
