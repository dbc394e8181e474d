// What `bun server/process/main.ts` runs once its SIGHUP handler is in place (main.ts). It
// decides alone what this process is:
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
import { PortInUseError, startServer, type Service } from "./service.ts";
import { installSignalHandlers } from "./signals.ts";
import { METRICS_BOARD_OFFSET, SHARED_MEMORY_BYTES, SHARED_RATE_TABLE_VARIABLE, supervise, WORKER_ID_VARIABLE } from "./supervisor.ts";
import { leaveWithSupervisor } from "./worker-watch.ts";
import { decodeTables, loadData } from "./load-data.ts";
import { inherited, openSupervisorSet, type HandoverMessage } from "./table-handover.ts";
import { tableSetFromDescriptors, type SetDescriptors } from "./table-set.ts";
import type { Tables } from "../http/pipeline/api-data.ts";

const workerId = process.env[WORKER_ID_VARIABLE];

try {
  const config = readConfig(process.env);
  if (workerId !== undefined) {
    const signals = installSignalHandlers(workerId); // before the tables load
    const supervisor = process.ppid;
    const memory = process.env[SHARED_RATE_TABLE_VARIABLE] === "1" ? mapInheritedMemory(SHARED_MEMORY_BYTES) : undefined;
    const rateMemory = config.rateLimit ? memory : undefined;
    // The set the supervisor checked and sealed: mapped, checked again, then its descriptors closed (the mappings hold it).
    const sealed = (set: SetDescriptors, origin: string) => async (): Promise<Tables> => {
      const tables = tableSetFromDescriptors(set, origin);
      try {
        return decodeTables(tables);
      } finally {
        tables.close();
      }
    };
    // A set handed over while this worker still starts is taken once it serves (messages have no queue).
    let service: Service | null = null;
    let handedOver: HandoverMessage & { type: "tables" } | null = null;
    const take = (message: HandoverMessage & { type: "tables" }) => {
      const set = message.set;
      if (set === null) return void service!.reload();
      void service!.reload(async () => {
        let opened: SetDescriptors;
        try {
          opened = openSupervisorSet(set, message.supervisor);
        } catch (error) {
          logError("tables_not_shared", error, { worker: workerId, fallback: "reading DATA_DIR into this worker's own sealed memory" });
          return loadData(config.dataDir);
        }
        return sealed(opened, "from the supervisor")();
      });
    };
    process.on("message", (message: HandoverMessage) => {
      if (message?.type !== "tables") return;
      if (service === null) handedOver = message;
      else take(message);
    });
    const start = inherited(process.env);
    service = await startServer(config, { sharePort: true, workerId, rateMemory, load: start ? sealed(start, "inherited from the supervisor") : undefined });
    const serving = service;
    if (handedOver !== null) take(handedOver);
    // A SIGHUP reloads the whole instance: the supervisor reads and seals the new set, then hands it to every worker.
    const askSupervisor = () => {
      try {
        process.send!({ type: "reload" } satisfies HandoverMessage);
      } catch {
        void serving.reload(); // no supervisor to ask (it is gone): read DATA_DIR alone until this worker leaves
      }
    };
    leaveWithSupervisor(supervisor, workerId, signals.serving(service, askSupervisor));
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
