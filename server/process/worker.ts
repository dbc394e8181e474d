// A worker process of server/process/supervisor.ts: serves on the shared port with reusePort.

import { readConfig } from "./config.ts";
import { logError } from "../core/log.ts";
import { handleSignals, startServer } from "./service.ts";
import { exchangeWithSupervisor } from "../ops/metrics-exchange.ts";

try {
  const config = readConfig(process.env);
  const service = await startServer(config, { reusePort: true, workerId: process.env.ZONETIME_WORKER_ID ?? "0" });
  handleSignals(service);
  exchangeWithSupervisor(service.state.metrics);
} catch (error) {
  logError("worker_start_failed", error, { worker: process.env.ZONETIME_WORKER_ID });
  process.exit(1);
}
