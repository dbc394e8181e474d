// The signals of a serving process (alone or a worker), handled from the first moment:
// the handlers are installed before the tables load, because until a SIGHUP handler
// exists a SIGHUP kills the process (its default action), and loading takes a while. A
// SIGHUP that arrives while starting is remembered and becomes a reload once serving (the
// files may have changed since they were read); SIGTERM or SIGINT while starting exits at
// once, there being nothing to drain yet.

import { logEvent } from "../core/log.ts";
import type { Service } from "./service.ts";

export interface SignalHandlers {
  /**
   * Start is over: signals now act on `service` (and a SIGHUP received meanwhile reloads
   * it). `hangup`: what a SIGHUP does instead of reloading from DATA_DIR (a worker asks its
   * supervisor, which reloads the instance). Returns its drain-then-exit, for other reasons
   * to stop (a worker's supervisor gone).
   */
  serving(service: Service, hangup?: () => void): (reason: string) => Promise<void>;
}

export function installSignalHandlers(workerId: string): SignalHandlers {
  let service: Service | null = null;
  let onHangup: (() => void) | null = null;
  let reloadAfterStart = false;
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logEvent("signal", { signal: reason, worker: workerId, starting: service === null });
    if (service !== null) await service.drain();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGHUP", () => {
    if (onHangup !== null) {
      onHangup();
      return;
    }
    reloadAfterStart = true;
    logEvent("signal", { signal: "SIGHUP", worker: workerId, starting: true, reloadOnceServing: true });
  });
  return {
    serving(started, hangup) {
      service = started;
      onHangup = hangup ?? (() => void started.reload());
      if (reloadAfterStart) onHangup();
      return stop;
    },
  };
}
