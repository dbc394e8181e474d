// The one entry point: `bun server/process/main.ts` (containers, `bun run start` after its
// build check, the tests). It decides alone what this process is:
//   - a worker, when the supervisor started it (ZONETIME_WORKER_ID is set): serves on the
//     shared port with reusePort, limits rates in the table the supervisor shares with it,
//     exchanges its metrics with the supervisor, and leaves with it (worker-watch.ts);
//   - alone, with WORKERS=1: serves, no supervisor;
//   - the supervisor otherwise: starts WORKERS copies of this same file as workers.

import { logError } from "../core/log.ts";
import { MetricsBoard } from "../ops/metrics-board.ts";
import { exchangeWithSupervisor } from "../ops/metrics-exchange.ts";
import { mapInheritedMemory } from "./shared-memory.ts";
import { ConfigError, readConfig } from "./config.ts";
import { PortInUseError, startServer } from "./service.ts";
import { installSignalHandlers } from "./signals.ts";
import { METRICS_BOARD_OFFSET, SHARED_MEMORY_BYTES, SHARED_RATE_TABLE_VARIABLE, supervise, WORKER_ID_VARIABLE } from "./supervisor.ts";
import { leaveWithSupervisor } from "./worker-watch.ts";

const workerId = process.env[WORKER_ID_VARIABLE];

try {
  const config = readConfig(process.env);
  if (workerId !== undefined) {
    const signals = installSignalHandlers(workerId); // before the tables load
    const supervisor = process.ppid;
    const memory = process.env[SHARED_RATE_TABLE_VARIABLE] === "1" ? mapInheritedMemory(SHARED_MEMORY_BYTES) : undefined;
    const service = await startServer(config, { reusePort: true, workerId, rateMemory: config.rateLimit ? memory : undefined });
    leaveWithSupervisor(supervisor, workerId, signals.serving(service));
    const board = memory === undefined ? null : new MetricsBoard(memory, METRICS_BOARD_OFFSET);
    service.state.instanceMetrics = exchangeWithSupervisor(service.state.metrics, board);
  } else if (config.workers === 1) {
    const signals = installSignalHandlers("0"); // before the tables load
    signals.serving(await startServer(config));
  } else {
    await supervise(config);
  }
} catch (error) {
  const event = error instanceof ConfigError ? "bad_configuration" : error instanceof PortInUseError ? "port_in_use"
    : workerId !== undefined ? "worker_start_failed" : "start_failed";
  logError(event, error, workerId !== undefined ? { worker: workerId } : {});
  process.exit(1);
}
