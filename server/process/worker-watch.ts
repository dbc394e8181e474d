// A worker leaves with its supervisor: when the IPC channel closes or the process is
// reparented (the supervisor died, even by kill -9), it drains and exits, so that no
// orphan keeps serving the port (a new instance would otherwise share it through
// reusePort, or be refused it).

import { logEvent } from "../core/log.ts";

/** How often a worker checks that its supervisor is still its parent. */
const PARENT_CHECK_MS = 500;

/** `supervisor`: the parent pid at start; `stop`: drains and exits (signals.ts, installSignalHandlers). */
export function leaveWithSupervisor(supervisor: number, workerId: string, stop: (reason: string) => Promise<void>): void {
  let gone = false;
  const orphaned = (how: string) => {
    if (gone) return;
    gone = true;
    logEvent("supervisor_gone", { worker: workerId, how });
    void stop("supervisor_gone");
  };
  process.on("disconnect", () => orphaned("ipc channel closed"));
  setInterval(() => {
    if (process.ppid !== supervisor) orphaned(`reparented to ${process.ppid}`);
  }, PARENT_CHECK_MS).unref();
}
