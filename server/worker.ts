// A worker process of server/supervisor.ts: serves on the shared port with reusePort,
// limits rates in the table the supervisor shares with it, and leaves with its
// supervisor: when the IPC channel closes or the process is reparented (the supervisor
// died, even by kill -9), it drains and exits, so no orphan keeps serving the port.

import { readConfig } from "./config.ts";
import { RATE_TABLE_BYTES } from "./http/rate-limiter.ts";
import { logError, logEvent } from "./log.ts";
import { handleSignals, startServer } from "./main.ts";
import { exchangeWithSupervisor } from "./ops/metrics-exchange.ts";
import { mapInheritedMemory } from "./ops/shared-memory.ts";

/** How often a worker checks that its supervisor is still its parent. */
const PARENT_CHECK_MS = 500;

try {
  const supervisor = process.ppid;
  const config = readConfig(process.env);
  const rateMemory = config.rateLimit && process.env.ZONETIME_SHARED_RATE_TABLE === "1" ? mapInheritedMemory(RATE_TABLE_BYTES) : undefined;
  const service = await startServer(config, { reusePort: true, workerId: process.env.ZONETIME_WORKER_ID ?? "0", rateMemory });
  const stop = handleSignals(service);
  service.state.instanceMetrics = exchangeWithSupervisor(service.state.metrics);
  let gone = false;
  const orphaned = (how: string) => {
    if (gone) return;
    gone = true;
    logEvent("supervisor_gone", { worker: service.state.workerId, how });
    void stop("supervisor_gone");
  };
  process.on("disconnect", () => orphaned("ipc channel closed"));
  setInterval(() => {
    if (process.ppid !== supervisor) orphaned(`reparented to ${process.ppid}`);
  }, PARENT_CHECK_MS).unref();
} catch (error) {
  logError("worker_start_failed", error, { worker: process.env.ZONETIME_WORKER_ID });
  process.exit(1);
}
