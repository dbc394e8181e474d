// One serving process: loads the tables, listens (HTTP or HTTPS, plus the optional
// plain-HTTP redirect port), drains on SIGTERM, reloads the tables on SIGHUP. Run alone
// (WORKERS=1) or as a worker of server/process/supervisor.ts, which binds every worker to the
// same port with reusePort.

import { constants } from "node:crypto";
import { join } from "node:path";
import { apiData } from "../http/pipeline/api-data.ts";
import { createFetchHandler, internalError } from "../http/pipeline/handler.ts";
import { createAppState } from "../http/pipeline/app-state.ts";
import type { AppState } from "../http/contract.ts";
import { httpsRedirect } from "../http/bun/https-redirect.ts";
import { nativeAnswers, type NativeRoute } from "../http/bun/native-answers.ts";
import { rawPathRouting } from "../http/bun/raw-path-guard.ts";
import { realtimeClock, realtimeClockSource } from "../core/clock.ts";
import type { Config } from "./config.ts";
import { loadData } from "./load-data.ts";
import type { Tables } from "../http/pipeline/api-data.ts";
import { logError, logEvent } from "../core/log.ts";
import { gateListeners } from "../ops/accept-queue.ts";
import { ReloadQueue } from "./reload-queue.ts";
import { StaticSite } from "../http/bun/static-site.ts";

export interface Service {
  server: BunServer;
  redirect: BunServer | null;
  state: AppState;
  /** Stops accepting, answers what is in flight with `Connection: close`, then resolves. */
  drain(): Promise<void>;
  /**
   * Loads generated/ again (or the tables `load` gives: a supervisor's sealed set); on any
   * error keeps the tables it has and reports false. One reload at a time: asked for while
   * one runs, it runs once that one is done, with the newest `load` asked for.
   */
  reload(load?: () => Promise<Tables>): Promise<boolean>;
}

// TLS 1.2 and 1.3 only.
const NO_OLD_TLS = constants.SSL_OP_NO_SSLv3 | constants.SSL_OP_NO_TLSv1 | constants.SSL_OP_NO_TLSv1_1;

// TLS 1.2 suites: Mozilla's "intermediate" profile (Server Side TLS 6.0): ECDHE key exchange
// (forward secrecy) with AEAD ciphers only, no CBC, no SHA-1 MAC, no RSA key exchange. The
// TLS 1.3 suites are all AEAD and forward-secret already and are left as they are.
const INTERMEDIATE_TLS12_CIPHERS = [
  "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
  "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
].join(":");

type BunServer = ReturnType<typeof Bun.serve>;

/** The longest a drain waits for the kernel's accept queue to empty once new connections are refused. */
const ACCEPT_QUEUE_MAX_MS = 2000;

/** A port something else listens on; the message says what to do about it. */
export class PortInUseError extends Error {
  constructor(variable: string, port: number) {
    super(`${variable} ${port} is already in use (another program, or another zonetime instance or its orphaned workers, ` +
      `listens on it): stop it or choose another ${variable}; to hand a port over in a rolling restart, start both instances with SHARE_PORT=on`);
  }
}

const inUse = (error: unknown) => (error as { code?: string } | null)?.code === "EADDRINUSE";

/** HOST, or by default `::` (IPv6 and IPv4), falling back to `0.0.0.0` where there is no IPv6. */
function listen(host: string | null, variable: string, port: number, serve: (hostname: string) => BunServer): BunServer {
  try {
    if (host !== null) return serve(host);
    try {
      return serve("::");
    } catch (error) {
      if (inUse(error)) throw error;
      return serve("0.0.0.0");
    }
  } catch (error) {
    throw inUse(error) ? new PortInUseError(variable, port) : error;
  }
}

/**
 * Binds PORT (and HTTP_REDIRECT_PORT) without reusePort and lets go, so that a port
 * something else holds is refused before any worker starts: a worker's reusePort bind
 * would join a listener of the same user instead of failing. Returns the port bound
 * (PORT=0 picks a free one). A program binding the port within the instant between this
 * probe and the workers' binds is not caught.
 */
export function claimPorts(config: Config): { port: number; redirectPort: number | null } {
  const probe = (variable: string, port: number) => {
    const server = listen(config.host, variable, port, (hostname) => Bun.serve({ hostname, port, reusePort: false, fetch: () => new Response(null) }));
    const bound = server.port!;
    server.stop(true);
    return bound;
  };
  const port = probe("PORT", config.port);
  const redirectPort = config.tls && config.httpRedirectPort !== null ? probe("HTTP_REDIRECT_PORT", config.httpRedirectPort) : null;
  return { port, redirectPort };
}

/**
 * Reads SITE_DIR again into memory. A site that cannot be read, or whose folder is gone
 * while one was being served (a build between its two renames), leaves the old one serving.
 */
function reloadSite(state: AppState, siteDir: string): boolean {
  try {
    const site = StaticSite.load(siteDir);
    if (site === null && state.site !== null) throw new Error(`${join(siteDir, "index.html")} is missing`);
    state.site = site;
    return true;
  } catch (error) {
    logError("site_reload_failed", error, { worker: state.workerId, keptSite: state.site !== null });
    return false;
  }
}

/**
 * sharePort: others may listen on the port too: true in a supervisor's workers (siblings),
 * otherwise SHARE_PORT. Either way the port is bound with SO_REUSEPORT (see below).
 * rateMemory: the rate table the instance's workers share. load: where the tables come
 * from at start (a worker's: the set its supervisor sealed), by default DATA_DIR.
 */
export async function startServer(
  config: Config,
  options: { sharePort?: boolean; workerId?: string; rateMemory?: ArrayBuffer; load?: () => Promise<Tables> } = {},
): Promise<Service> {
  const fromDisk = () => loadData(config.dataDir);
  const state = createAppState(await (options.load ?? fromDisk)(), realtimeClock, config, options.workerId ?? "0", options.rateMemory);
  const data = state.data;
  const shared = options.sharePort ?? config.sharePort;
  // Alone, the port is claimed first by a bind without SO_REUSEPORT (claimPorts: a port
  // something else holds is refused as before), then bound with it all the same: the drain's
  // sink must find the port's reuseport group already there, to put its program on before
  // it joins (ops/syn-sink.ts).
  const ports = shared ? { port: config.port, redirectPort: config.httpRedirectPort } : claimPorts(config);
  // Bun's router sees the request-target as sent: http/raw-path-guard.ts.
  const routing = rawPathRouting(createFetchHandler(state));
  // Constant answers Bun sends without entering JavaScript (http/native-answers.ts), made
  // again after each reload and taken away when a drain begins.
  const constantHandler = createFetchHandler(state, { counted: false });
  const handlers = (natives: Record<string, NativeRoute>) => ({
    routes: { ...routing.routes, ...natives },
    fetch: routing.fetch,
    error(error: Error) {
      logError("unhandled", error);
      return internalError(state);
    },
  });
  const initial = handlers(await nativeAnswers(constantHandler, state, routing));
  // A reload takes the tables as one set and the website beside them; each that fails
  // leaves what was serving in place.
  let nextLoad: () => Promise<Tables> = fromDisk;
  const reloads = new ReloadQueue(async () => {
    let ok = reloadSite(state, config.siteDir);
    try {
      const load = nextLoad;
      nextLoad = fromDisk;
      state.data = apiData(await load(), config.tls !== null, state.requestClock, config.answerCacheBytes, state.data);
      logEvent("reloaded", {
        worker: state.workerId, tzdb: state.data.zones.tzdbVersion, ipRanges: state.data.ip.rangeCounts,
        site: state.site ? { files: state.site.size, bytes: state.site.totalBytes } : null,
      });
    } catch (error) {
      ok = false;
      logError("reload_failed", error, { worker: state.workerId, keptTzdb: state.data.zones.tzdbVersion });
    }
    if (ok) state.metrics.reloads.ok++;
    else state.metrics.reloads.failed++;
    // The constant answers of the data now serving (after a failed reload, the data kept).
    if (!state.draining) server.reload(handlers(await nativeAnswers(constantHandler, state, routing)));
    return ok;
  });
  const server = listen(config.host, "PORT", ports.port, (hostname) => Bun.serve({
    hostname,
    port: ports.port,
    reusePort: true,
    development: false,
    // Slow or idle clients are cut after this long (slowloris costs them, not us).
    idleTimeout: 30,
    tls: config.tls
      ? { cert: Bun.file(config.tls.certFile), key: Bun.file(config.tls.keyFile), secureOptions: NO_OLD_TLS, ciphers: INTERMEDIATE_TLS12_CIPHERS }
      : undefined,
    ...initial,
  }));

  // Compare the serving clock with the system clock every second, so that a divergence is
  // logged and counted even while no probe asks (a probe checks again when it comes).
  setInterval(() => state.clockCheck.check(), 1000).unref();

  let redirect: BunServer | null = null;
  if (config.tls && ports.redirectPort !== null) {
    const httpsPort = server.port;
    redirect = listen(config.host, "HTTP_REDIRECT_PORT", ports.redirectPort, (hostname) => Bun.serve({
      hostname,
      port: ports.redirectPort!,
      reusePort: true,
      development: false,
      idleTimeout: 10,
      fetch: httpsRedirect(config.publicHosts, httpsPort!),
    }));
  }

  logEvent("listening", {
    url: `${config.tls ? "https" : "http"}://${server.hostname?.includes(":") ? `[${server.hostname}]` : server.hostname}:${server.port}`,
    redirectPort: redirect?.port ?? null,
    worker: state.workerId,
    tzdb: data.zones.tzdbVersion,
    ipRanges: data.ip.rangeCounts,
    clock: realtimeClockSource,
    dataDir: config.dataDir,
  });

  return {
    server,
    redirect,
    state,
    async drain() {
      state.draining = true;
      // Every answer from now on comes through the handler, which adds `Connection: close`.
      server.reload(handlers({}));
      logEvent("draining", { worker: state.workerId, inFlight: server.pendingRequests });
      // Keep listening a moment with `Connection: close` on every answer, so that busy
      // keep-alive connections end on a response of ours rather than being cut idle, and
      // a load balancer or a second instance on the port can take the new ones.
      await Bun.sleep(config.drainGraceMs);
      // Then refuse new connections but accept those the kernel already queued, so that
      // closing the listener resets none of them (see ops/accept-queue.ts).
      const listening = [server.port, redirect?.port].filter((p): p is number => p !== undefined);
      const gate = gateListeners(listening, { alone: !shared });
      const acceptQueue = gate ? await gate.drained(Math.min(ACCEPT_QUEUE_MAX_MS, config.drainSeconds * 1000)) : null;
      const deadline = Bun.sleep(config.drainSeconds * 1000).then(() => "deadline" as const);
      redirect?.stop();
      const stopped = server.stop(false).then(() => "drained" as const);
      const outcome = await Promise.race([stopped, deadline]);
      if (outcome === "deadline") await server.stop(true);
      gate?.release();
      logEvent("stopped", {
        worker: state.workerId,
        outcome,
        acceptQueue: acceptQueue ? { listeners: gate!.listeners, by: gate!.by, filterErrno: gate!.filterErrno, waitedMs: Math.round(acceptQueue.waitedMs), emptied: acceptQueue.empty } : "not gated",
      });
    },
    reload(load) {
      nextLoad = load ?? fromDisk;
      if (reloads.busy) logEvent("reload_queued", { worker: state.workerId });
      return reloads.request();
    },
  };
}
