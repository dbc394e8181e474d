// The first code the entry point runs (server/process/main.ts imports it before anything,
// and loads the rest only after it has run): a SIGHUP handler. Until a process has one, a SIGHUP kills
// it (the default action), and reading and compiling the rest of the modules takes tens of
// milliseconds before signals.ts or the supervisor could install theirs. So this one only
// counts: the real handler takes over (takeOverHangup) and acts on what came meanwhile, once
// serving, as docs/operations.md promises. It imports nothing, so nothing is loaded before it.

let received = 0;
const early = () => {
  received++;
};
process.on("SIGHUP", early);

/**
 * Makes `handler` the SIGHUP handler (added before the early one is removed: no moment
 * without one). Returns whether a SIGHUP arrived before, which the caller acts on.
 */
export function takeOverHangup(handler: () => void): boolean {
  process.on("SIGHUP", handler);
  process.off("SIGHUP", early);
  return received > 0;
}
