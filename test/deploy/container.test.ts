// The image, built by `bun run image` (scripts/image/) and run as the Kubernetes manifest
// runs it: uid 1000, a read-only root, every capability dropped. It must start, be ready,
// answer every route as the service does in-process, drain on SIGTERM within the grace
// period without resetting a connection under load, reload on SIGHUP, and share its rate
// limit through Redis (RATE_LIMIT_STORE) from inside the container.
//
// Needs podman (scripts/bootstrap.sh --test installs it, with runc and debootstrap for the
// stand-in base image) and root for debootstrap when the base image must be made. Where
// podman is installed but cannot run a container at all (no namespaces, a nested sandbox)
// the suite is skipped with the reason printed; anywhere else a failure is a failure.

import { afterAll, describe, expect, test } from "bun:test";
import { buildImage, IMAGE } from "../../scripts/image/build-image.ts";
import { ROUTE_TABLE } from "../../server/http/routing/route-table.ts";
import { COMPOSE, composeRunFlags, composeServices, containerEngine, engineRun, engineRunAsync, manifestContainer, manifestRunFlags, runContainer, type Container } from "../support/container.ts";
import { NGINX_CONF, startNginx } from "../support/nginx.ts";
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { dirname, resolve } from "node:path";
import { freePort } from "../support/free-port.ts";
import { keepAliveLoad, newLoadReport } from "../support/keepalive-load.ts";
import { startRedis, type RedisServer } from "../support/redis-server.ts";
import { testHandler } from "../support/test-server.ts";
import { chunkedUpload } from "../support/hostile-upload.ts";
import { SAMPLES } from "../support/route-samples.ts";

const engine = containerEngine();
if (engine === null) throw new Error("podman is not installed: run scripts/bootstrap.sh --test (it installs podman, runc and debootstrap from Debian)");

let built: { seconds: number; bytes: number } | Error;
try {
  built = buildImage();
} catch (error) {
  built = error as Error;
}
// Can this machine run a container at all? (The image is there: a failure now is the runtime's.)
const probe = built instanceof Error ? null : engineRun(engine, ["run", "--rm", "--network=host", IMAGE, "bun", "--version"]);
const cannotRun = probe !== null && !probe.ok && /namespace|cgroup|permission denied|operation not permitted|OCI runtime/i.test(probe.stderr) ? probe.stderr.trim() : null;
if (cannotRun) console.warn(`SKIPPED: ${engine.name} is installed but cannot run a container here: ${cannotRun}`);
const containerTest = test.skipIf(cannotRun !== null);

const containers: Container[] = [];
let redis: RedisServer | null = null;
// Each removal waits on podman (about a second each on a loaded machine): more than the 5 s default for all of them.
afterAll(() => {
  for (const c of containers) c.remove();
  redis?.stop();
}, 120_000);

/** Starts the image as the manifest runs it on `port`; resolves once /health/ready answers 200, with the seconds it took. */
async function start(env: Record<string, string> = {}): Promise<{ container: Container; port: number; url: string; secondsToReady: number }> {
  if (built instanceof Error) throw built;
  const port = await freePort();
  const started = performance.now();
  const container = runContainer(engine!, IMAGE, manifestRunFlags({ PORT: String(port), HOST: "127.0.0.1", ...env }, engine!.name));
  containers.push(container);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; await Bun.sleep(50)) {
    const ready = await fetch(`${url}/health/ready`).then((r) => r.status === 200, () => false);
    if (ready) break;
    const state = engineRun(engine!, ["inspect", "--format", "{{.State.Status}}", container.name]).stdout.trim();
    if (state === "exited" || Date.now() > deadline) throw new Error(`the container did not become ready (${state}):\n${container.logs()}`);
  }
  return { container, port, url, secondsToReady: (performance.now() - started) / 1000 };
}

describe("the image", () => {
  test("bun run image builds it", () => {
    if (built instanceof Error) throw built;
    console.log(`image ${IMAGE}: ${(built.bytes / 1e6).toFixed(0)} MB, built in ${built.seconds.toFixed(0)} s`);
    expect(built.bytes).toBeGreaterThan(0);
  });

  containerTest("runs as the manifest says (uid 1000, read-only root, no capabilities) and answers every route as the service does", async () => {
    const { container, url, secondsToReady } = await start();
    console.log(`container ready in ${secondsToReady.toFixed(2)} s`);
    const { container: spec } = manifestContainer();
    const status = engineRun(engine!, ["exec", container.name, "cat", "/proc/1/status"]).stdout;
    expect(/^Uid:\s+(\d+)/m.exec(status)![1]).toBe(String(spec.securityContext?.runAsUser ?? manifestContainer().pod.securityContext.runAsUser));
    expect(/^CapEff:\s+(\w+)/m.exec(status)![1]).toBe("0000000000000000");
    // A read-only root: the service's own user cannot write anywhere in the image.
    const write = engineRun(engine!, ["exec", container.name, "sh", "-c", "touch /app/generated/x || touch /tmp/x"]);
    expect(write.ok).toBe(false);
    expect(write.stderr).toContain("Read-only file system");

    expect(Object.keys(SAMPLES).sort()).toEqual([...new Set(ROUTE_TABLE.map((r) => r.pattern))].sort());
    const reference = await testHandler();
    for (const sample of Object.values(SAMPLES)) {
      const { path, init } = typeof sample === "string" ? { path: sample, init: undefined } : sample;
      const got = await fetch(url + path, init);
      const want = await reference(new Request(`http://127.0.0.1${path}`, init));
      const body = await got.text();
      if (path === "/ip") {
        // The caller here is the loopback address: no location, in the error shape.
        expect(got.status).toBe(404);
        expect(JSON.parse(body)).toHaveProperty("error");
        continue;
      }
      expect({ path, status: got.status, type: got.headers.get("content-type") }).toEqual({ path, status: want.status, type: want.headers.get("content-type") });
    }
    const london = await (await fetch(`${url}/timezone/Europe/London`)).json() as Record<string, unknown>;
    expect(london.timezone).toBe("Europe/London");
    expect(Object.keys(london)).toEqual(["utc_offset", "timezone", "day_of_week", "day_of_year", "datetime", "utc_datetime", "unixtime", "raw_offset", "week_number", "dst", "abbreviation", "dst_offset", "dst_from", "dst_until", "client_ip"]);
    expect(((await (await fetch(`${url}/ip/8.8.8.8`)).json()) as { client_ip: string }).client_ip).toBe("8.8.8.8");
    expect(((await (await fetch(`${url}/coordinates/51.5074,-0.1278`)).json()) as { timezone: string }).timezone).toBe("Europe/London");
    const site = await fetch(`${url}/`, { headers: { accept: "text/html" } });
    expect(site.status).toBe(200);
    expect(site.headers.get("content-type")).toContain("text/html");
  }, 300_000);

  containerTest("8 chunked 120 MB uploads at once under the manifest's memory limit: each refused (413), the container's memory flat, still serving", async () => {
    const limit = manifestContainer().container.resources.limits.memory as string; // 512Mi
    const port = await freePort();
    const container = runContainer(engine!, IMAGE, [...manifestRunFlags({ PORT: String(port), HOST: "127.0.0.1", WORKERS: "2", RATE_LIMIT: "off", RATE_LIMIT_STORE: "" }, engine!.name), `--memory=${limit.replace(/i$/, "").toLowerCase()}`]);
    containers.push(container);
    const url = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; !(await fetch(`${url}/health/ready`).then((r) => r.ok, () => false)); await Bun.sleep(100)) {
      if (Date.now() > deadline) throw new Error(`not ready:\n${container.logs()}`);
    }
    // The RSS of the container's processes (its supervisor and workers), read from the host's /proc.
    const pid = Number(engineRun(engine!, ["inspect", "--format", "{{.State.Pid}}", container.name]).stdout.trim());
    const rss = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024;
    const memory = () => [pid, ...readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)].reduce((sum, p) => sum + rss(p), 0);
    const before = memory();
    const uploads = await Promise.all(Array.from({ length: 8 }, () => chunkedUpload(port, "/api/Conversion/ConvertTimeZone", 120_000_000)));
    const after = memory();
    console.log(`container (--memory=${limit}): 8 chunked 120 MB uploads, client saw ${uploads.map((u) => u.status).join(",")}, RSS of its processes ${(before / 2 ** 20).toFixed(1)} -> ${(after / 2 ** 20).toFixed(1)} MiB`);
    // The instance's counts reach /metrics as the workers report them to the supervisor.
    let refused = NaN;
    for (const deadline = Date.now() + 10_000; !(refused >= 8) && Date.now() < deadline; await Bun.sleep(200)) {
      refused = Number(/zonetime_requests_total\{route="timeapi_conversion",status="413"\} (\d+)/.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);
    }
    expect(refused).toBe(8);
    expect(before).toBeGreaterThan(0);
    for (const u of uploads) expect([413, 0]).toContain(u.status);
    expect(after - before).toBeLessThan(40 * 2 ** 20); // two workers: under 20 MB each
    expect((await fetch(`${url}/timezone/UTC`)).status).toBe(200);
    container.remove();
  }, 180_000);

  containerTest("SIGHUP reloads the tables inside the container", async () => {
    const { container } = await start();
    expect(engineRun(engine!, ["kill", "--signal", "HUP", container.name]).ok).toBe(true);
    for (const deadline = Date.now() + 20_000; !container.logs().includes('"event":"reloaded"'); await Bun.sleep(100)) {
      if (Date.now() > deadline) throw new Error(`no reload:\n${container.logs()}`);
    }
  }, 120_000);

  // `podman stop` runs asynchronously: the load client lives in this process, and a
  // synchronous spawn froze it for the whole drain. Frozen, each connection's next request
  // sat unsent in the client while the server, seeing an idle keep-alive connection, closed
  // it at the end of the drain; resumed, the client wrote into a closed connection and
  // counted one lost request per connection (20 of 20). The same freeze on the host loses
  // the same 20 (a host repro: the load client and a blocking `kill -TERM; wait` in one process).
  containerTest("stop (SIGTERM) under load drains within the grace period: exit 0, no request lost on a busy keep-alive connection, no cut answer, no error", async () => {
    const { container, port } = await start();
    const grace = manifestContainer().pod.terminationGracePeriodSeconds as number;
    let stop = false;
    const load = keepAliveLoad(port, "/timezone/Europe/London", 20, () => stop);
    await Bun.sleep(1500);
    const stopping = performance.now();
    const stopped = await engineRunAsync(engine!, ["stop", "--time", String(grace), container.name]);
    const seconds = (performance.now() - stopping) / 1000;
    stop = true;
    const report = await load;
    const stoppedLine = container.logs().split("\n").find((l) => l.includes('"event":"stopped"'));
    console.log(`podman stop: ${seconds.toFixed(2)} s (grace ${grace} s); load ${JSON.stringify(report)}; ${stoppedLine}`);
    expect(stopped.ok).toBe(true);
    expect(engineRun(engine!, ["inspect", "--format", "{{.State.ExitCode}}", container.name]).stdout.trim()).toBe("0");
    expect(stoppedLine).toBeDefined();
    expect(report.responses).toBeGreaterThan(100);
    expect(report.lostOnReusedConnection).toBe(0);
    expect(report.truncated).toBe(0);
    expect(report.non2xx).toBe(0);
  }, 120_000);

  // With the client no longer frozen it keeps opening connections through the drain (every
  // answer then says `Connection: close`). Closing the listener resets those the kernel had
  // queued, unless new ones are stopped first: the SYN filter is refused here (EPERM: this
  // kernel wants CAP_NET_ADMIN for it, and the manifest drops every capability), so the
  // drain steers them into a full reuseport sink (server/ops/syn-sink.ts). Before the sink
  // the drain ran "not gated" and resetBeforeAccepted was 0, 13 and 20 of 20 in three runs.
  containerTest("stop (SIGTERM) under load, no capabilities: connections opened during the drain are never reset before they are accepted", async () => {
    const { container, port } = await start();
    const grace = manifestContainer().pod.terminationGracePeriodSeconds as number;
    let stop = false;
    const report = newLoadReport();
    const load = keepAliveLoad(port, "/timezone/Europe/London", 20, () => stop, report);
    await Bun.sleep(1500);
    const openedBefore = report.opened;
    const stopped = await engineRunAsync(engine!, ["stop", "--time", String(grace), container.name]);
    stop = true;
    await load;
    const stoppedLine = container.logs().split("\n").find((l) => l.includes('"event":"stopped"'));
    console.log(`podman stop under churn: opened during the drain ${report.opened - openedBefore}; load ${JSON.stringify(report)}; ${stoppedLine}`);
    expect(stopped.ok).toBe(true);
    expect(engineRun(engine!, ["inspect", "--format", "{{.State.ExitCode}}", container.name]).stdout.trim()).toBe("0");
    // Connections were opened while it drained (so a reset had the chance to happen)...
    expect(report.opened - openedBefore).toBeGreaterThan(20);
    expect(report.resetBeforeAccepted).toBe(0);
    expect(report.truncated).toBe(0);
    expect(report.lostOnReusedConnection).toBe(0);
    expect(report.non2xx).toBe(0);
    // ...and not by luck: the gate held, the queue was emptied before the listener closed.
    expect(JSON.parse(stoppedLine!).acceptQueue).toMatchObject({ listeners: 1, emptied: true });
  }, 120_000);

  containerTest("RATE_LIMIT_STORE from inside the container: Redis decides, /health shows it", async () => {
    redis = await startRedis();
    const { url } = await start({ RATE_LIMIT_STORE: redis.url, RATE_LIMIT: "10/60s", TRUST_PROXY: "loopback" });
    const allowed: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 15; i++) allowed.push((await fetch(`${url}/timezone/UTC`, { headers: { "x-forwarded-for": "198.51.100.77" } })).status);
    // The burst of 10, plus the one token 10/60s refills every 6 s on a machine slow enough to take that long.
    const refilled = Math.floor((Date.now() - started) / 6000);
    expect(allowed.filter((s) => s === 200).length).toBeGreaterThanOrEqual(10);
    expect(allowed.filter((s) => s === 200).length).toBeLessThanOrEqual(10 + refilled);
    expect(allowed.filter((s) => s === 429).length).toBeGreaterThan(0);
    const health = await (await fetch(`${url}/health`)).json() as { rate_limit_store: { state: string } };
    expect(health.rate_limit_store.state).toBe("up");
    expect(Number(await redis.cli("DBSIZE"))).toBe(1);
  }, 120_000);

  containerTest("compose.yaml's topology: its two zonetime services as containers, its redis-server command, nginx.conf in front: 10 of 40 allowed", async () => {
    if (built instanceof Error) throw built;
    const services = composeServices();
    const replicas = Object.entries(services).filter(([, s]) => s.image === IMAGE);
    expect(replicas.length).toBe(2);
    // Its Redis command, on a free port, by this machine's redis-server (no registry here for the redis image).
    const args = [...services.redis.command] as string[];
    expect(args[0]).toBe("redis-server");
    const own = await startRedis(args.slice(1).filter((_, i, all) => !["--port", "--bind"].includes(all[i]!) && !["--port", "--bind"].includes(all[i - 1]!)));
    try {
      const ports: number[] = [];
      for (const [, service] of replicas) {
        const port = await freePort();
        ports.push(port);
        expect(new URL(service.environment.RATE_LIMIT_STORE).port).toBe(args[args.indexOf("--port") + 1]!);
        const c = runContainer(engine!, IMAGE, composeRunFlags(service, { PORT: String(port), RATE_LIMIT_STORE: own.url, RATE_LIMIT: "10/60s", RATE_LIMIT_STORE_TIMEOUT_MS: "100" }, engine!.name));
        containers.push(c);
        for (const deadline = Date.now() + 60_000; !(await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false)); await Bun.sleep(50)) {
          if (Date.now() > deadline) throw new Error(`not ready:\n${c.logs()}`);
        }
        for (const deadline = Date.now() + 10_000; !c.logs().includes("rate_store_connected"); await Bun.sleep(50)) {
          if (Date.now() > deadline) throw new Error(`no store:\n${c.logs()}`);
        }
      }
      // nginx with the file compose.yaml mounts.
      expect(resolve(dirname(COMPOSE), services.nginx.volumes[0].split(":")[0])).toBe(NGINX_CONF);
      const nginx = await startNginx(ports);
      try {
        const external = Object.values(networkInterfaces()).flat().find((a) => a?.family === "IPv4" && !a.internal)?.address;
        let allowed = 0;
        for (let i = 0; i < 40; i++) {
          const r = await fetch(`http://${external ?? "127.0.0.1"}:${nginx.port}/timezone/UTC`, { headers: external ? {} : { "x-forwarded-for": "203.0.113.50" } });
          expect([200, 429]).toContain(r.status);
          if (r.status === 200) allowed++;
        }
        expect(allowed).toBe(10);
      } finally {
        await nginx.stop();
      }
    } finally {
      own.stop();
    }
  }, 180_000);
});
