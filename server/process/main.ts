// The one entry point: `bun server/process/main.ts` (containers, `bun run start` after its
// build check, the tests). It decides alone what this process is:
//   - a worker, when the supervisor started it (ZONETIME_WORKER_ID is set): serves on the
//     shared port with reusePort and exchanges its metrics with the supervisor;
//   - alone, with WORKERS=1: serves, no supervisor;
//   - the supervisor otherwise: starts WORKERS copies of this same file as workers.

import { logError } from "../core/log.ts";
import { exchangeWithSupervisor } from "../ops/metrics-exchange.ts";
import { ConfigError, readConfig } from "./config.ts";
import { handleSignals, startServer } from "./service.ts";
import { supervise, WORKER_ID_VARIABLE } from "./supervisor.ts";

const workerId = process.env[WORKER_ID_VARIABLE];

try {
  const config = readConfig(process.env);
  if (workerId !== undefined) {
    const service = await startServer(config, { reusePort: true, workerId });
    handleSignals(service);
    exchangeWithSupervisor(service.state.metrics);
  } else if (config.workers === 1) {
    handleSignals(await startServer(config));
  } else {
    await supervise(config);
  }
} catch (error) {
  const event = error instanceof ConfigError ? "bad_configuration" : workerId !== undefined ? "worker_start_failed" : "start_failed";
  logError(event, error, workerId !== undefined ? { worker: workerId } : {});
  process.exit(1);
}
