// Starts the HTTP service on the tables in DATA_DIR (default generated/). Run through
// `bun run start`, which builds the tables first when they are missing or stale.

import { join } from "node:path";
import { createFetchHandler, internalError, type AppState } from "./app.ts";
import { realtimeClock, realtimeClockSource } from "./clock.ts";
import { ConfigError, readConfig, type Config } from "./config.ts";
import { loadData } from "./data.ts";
import { logError, logEvent } from "./log.ts";

export async function startServer(config: Config) {
  const data = await loadData(config.dataDir);
  const state: AppState = { data, clock: realtimeClock, accessLog: config.accessLog, startedAt: Date.now() };
  const fetch = createFetchHandler(state);
  const options = {
    port: config.port,
    development: false,
    fetch,
    error(error: Error) {
      logError("unhandled", error);
      return internalError(state);
    },
  } as const;
  let server: ReturnType<typeof Bun.serve>;
  if (config.host !== null) {
    server = Bun.serve({ ...options, hostname: config.host });
  } else {
    try {
      server = Bun.serve({ ...options, hostname: "::" });
    } catch {
      server = Bun.serve({ ...options, hostname: "0.0.0.0" }); // a host without IPv6
    }
  }
  logEvent("listening", {
    url: `http://${server.hostname?.includes(":") ? `[${server.hostname}]` : server.hostname}:${server.port}`,
    tzdb: data.zones.tzdbVersion,
    ipRanges: data.ip.rangeCounts,
    clock: realtimeClockSource,
    dataDir: config.dataDir,
  });
  return { server, state };
}

if (import.meta.main) {
  try {
    await startServer(readConfig(process.env, join(import.meta.dir, "..", "generated")));
  } catch (error) {
    if (error instanceof ConfigError) logError("bad_configuration", error);
    else logError("start_failed", error);
    process.exit(1);
  }
}
