// A worker process of server/supervisor.ts: serves on the shared port with reusePort.

import { readConfig } from "./config.ts";
import { logError } from "./log.ts";
import { startServer } from "./main.ts";
import { installSignalHandlers } from "./process/signals.ts";
import { exchangeWithSupervisor } from "./ops/metrics-exchange.ts";

try {
  const workerId = process.env.ZONETIME_WORKER_ID ?? "0";
  const signals = installSignalHandlers(workerId); // before the tables load
  const service = await startServer(readConfig(process.env), { reusePort: true, workerId });
  signals.serving(service);
  exchangeWithSupervisor(service.state.metrics);
} catch (error) {
  logError("worker_start_failed", error, { worker: process.env.ZONETIME_WORKER_ID });
  process.exit(1);
}
