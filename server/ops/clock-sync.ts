// The system clock's synchronisation state as the kernel reports it: adjtimex(2) with
// modes = 0 reads without changing anything. The service promises synchronised time, so
// /health says truthfully whether the kernel believes it is synchronised and how large
// its error may be. Containers often cannot see the host's NTP state (TIME_ERROR,
// STA_UNSYNC, maxerror 16 s here): that is reported, not treated as unreadiness.

import { dlopen } from "bun:ffi";

export interface ClockSync {
  /** False when unknown or when the kernel says the clock is unsynchronised. */
  synchronised: boolean;
  /** adjtimex's return value by name: TIME_OK, TIME_ERROR, ... or "unavailable". */
  state: string;
  /** Estimated and maximum error, in microseconds (null when unavailable). */
  estimatedErrorMicros: number | null;
  maxErrorMicros: number | null;
}

const STATES = ["TIME_OK", "TIME_INS", "TIME_DEL", "TIME_OOP", "TIME_WAIT", "TIME_ERROR"];
const STA_UNSYNC = 0x0040;
// The buffer is a fresh typed array passed to each call, so bun:ffi takes its address for
// that call only (no pointer outlives it). struct timex on 64-bit Linux: modes (u32, padded) at 0, offset 8, freq 16, maxerror 24,
// esterror 32, status (i32) 40; the whole struct is 208 bytes.
const TIMEX_BYTES = 256;

type Adjtimex = (timex: Uint8Array) => number;
let adjtimex: Adjtimex | null | undefined;

function load(): Adjtimex | null {
  if (adjtimex !== undefined) return adjtimex;
  try {
    // The offsets above are those of 64-bit Linux; elsewhere the state is "unavailable".
    if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) return (adjtimex = null);
    const libc = dlopen("libc.so.6", { adjtimex: { args: ["ptr"], returns: "i32" } });
    adjtimex = (timex) => libc.symbols.adjtimex(timex);
  } catch {
    adjtimex = null;
  }
  return adjtimex;
}

export function readClockSync(): ClockSync {
  const call = load();
  if (call === null) return { synchronised: false, state: "unavailable", estimatedErrorMicros: null, maxErrorMicros: null };
  const bytes = new Uint8Array(TIMEX_BYTES); // modes = 0: read only
  const view = new DataView(bytes.buffer);
  const state = call(bytes);
  if (state < 0) return { synchronised: false, state: "unavailable", estimatedErrorMicros: null, maxErrorMicros: null };
  const status = view.getInt32(40, true);
  return {
    synchronised: state !== 5 && (status & STA_UNSYNC) === 0,
    state: STATES[state] ?? `state ${state}`,
    estimatedErrorMicros: Number(view.getBigInt64(32, true)),
    maxErrorMicros: Number(view.getBigInt64(24, true)),
  };
}
