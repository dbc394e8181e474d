// Closing a listener without resetting the connections the kernel already accepted for it.
//
// The kernel completes TCP handshakes on its own and queues the connections until the
// application calls accept(). Closing a listening socket resets every connection still in
// that queue: clients that already sent a request see it reset (wrk counts "read errors").
// Under steady load the queue is never empty, so "stop accepting" cannot be done by
// closing alone. Instead, on Linux:
//
//   1. a classic BPF socket filter on the listener drops new SYNs (pure SYN, no ACK), so no
//      new connection can enter the queue; the client retransmits its SYN a second later
//      and then meets another instance, or, if none is left, a refusal (ECONNREFUSED:
//      never accepted, nothing lost);
//   2. the service keeps accepting and answering (with `Connection: close`) until the
//      queue, read through getsockopt(TCP_INFO), stays empty;
//   3. only then is the listener closed.
//
// Connections accepted after step 1 inherit the filter, which is harmless: an established
// connection never receives a pure SYN. A kernel that refuses the filter (EPERM without
// CAP_NET_ADMIN, as in a container with every capability dropped on the project's
// machines) gets step 1 from a reuseport sink instead (ops/syn-sink.ts). Where neither is
// available (not Linux, no FFI), `gateListeners` returns null and the caller just closes.

import { readdirSync, readlinkSync } from "node:fs";
import { IPPROTO_TCP, nativeProgram, SO_ATTACH_FILTER, SOCK_FPROG_BYTES, socketCalls, SOL_SOCKET, type BpfInstruction, type SocketCalls } from "./socket-calls.ts";
import { sinkNewConnections, type SynSink } from "./syn-sink.ts";

const TCP_INFO = 11;
const TCP_LISTEN = 10;
// struct tcp_info: u8 tcpi_state at 0; for a listener the kernel puts the accept queue's
// length in tcpi_unacked (u32 at 24) and its limit in tcpi_sacked (u32 at 28).
const TCP_INFO_BYTES = 232;
const UNACKED_OFFSET = 24;

// The filter runs with the packet starting at the TCP header; byte 13 holds the flags.
// ldb [13]; and #(SYN|ACK); jeq #SYN -> drop, else keep.
const BPF_LD_B_ABS = 0x30;
const BPF_ALU_AND_K = 0x54;
const BPF_JMP_JEQ_K = 0x15;
const BPF_RET_K = 0x06;
const TCP_FLAGS_OFFSET = 13;
const SYN = 0x02;
const ACK = 0x10;
const DROP_NEW_SYNS: BpfInstruction[] = [
  [BPF_LD_B_ABS, 0, 0, TCP_FLAGS_OFFSET],
  [BPF_ALU_AND_K, 0, 0, SYN | ACK],
  [BPF_JMP_JEQ_K, 0, 1, SYN],
  [BPF_RET_K, 0, 0, 0], // drop
  [BPF_RET_K, 0, 0, 0xffffffff], // keep the whole packet
];

/** The accept-queue length of `fd` if it is a listening TCP socket, else null. */
function listenerBacklog(sys: SocketCalls, fd: number): number | null {
  const info = new Uint8Array(TCP_INFO_BYTES);
  const length = new Uint32Array([TCP_INFO_BYTES]);
  if (sys.getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, length) !== 0) return null;
  if (info[0] !== TCP_LISTEN) return null;
  return new DataView(info.buffer).getUint32(UNACKED_OFFSET, true);
}

/** The local port of a socket: sockaddr_in and sockaddr_in6 both keep it big-endian at byte 2. */
function localPort(sys: SocketCalls, fd: number): number | null {
  const address = new Uint8Array(128); // sockaddr_storage
  const length = new Uint32Array([address.length]);
  if (sys.getsockname(fd, address, length) !== 0) return null;
  return (address[2]! << 8) | address[3]!;
}

/** This process's listening TCP sockets on `ports`, by file descriptor. */
function listeningSockets(sys: SocketCalls, ports: readonly number[]): number[] {
  const fds: number[] = [];
  for (const entry of readdirSync("/proc/self/fd")) {
    const fd = Number(entry);
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${entry}`);
    } catch {
      continue; // closed since the listing
    }
    if (!target.startsWith("socket:") || listenerBacklog(sys, fd) === null) continue;
    const port = localPort(sys, fd);
    if (port !== null && ports.includes(port)) fds.push(fd);
  }
  return fds;
}

/** The SYN filter program in native memory: built once, kept for the process. */
let synFilter: Uint8Array | null | undefined;

function synFilterProgram(): Uint8Array | null {
  if (synFilter === undefined) synFilter = nativeProgram(DROP_NEW_SYNS)?.fprog ?? null;
  return synFilter;
}

/** 0 once attached, else the errno (-1: no program). */
function attachSynFilter(sys: SocketCalls, fd: number): number {
  const fprog = synFilterProgram();
  if (fprog === null) return -1;
  return sys.setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, fprog, SOCK_FPROG_BYTES) === 0 ? 0 : sys.errno();
}

export interface ListenerGate {
  /** How many listening sockets were found and now refuse new connections. */
  readonly listeners: number;
  /** How: a SYN filter on each listener, or a sink queue beside it (ops/syn-sink.ts). */
  readonly by: "filter" | "sink";
  /** Why not the filter, when a sink stands in: the errno setsockopt gave (1: EPERM). */
  readonly filterErrno?: number;
  /** Connections the kernel has queued for these listeners and the service has not accepted yet. */
  queued(): number;
  /** Resolves once the queues stayed empty for `settleMs`, or after `maxMs`; tells how long it took. */
  drained(maxMs: number, settleMs?: number): Promise<{ waitedMs: number; empty: boolean }>;
  /** Lets go of what the gate holds besides the listeners (the sinks): once they are closed. */
  release(): void;
}

/**
 * Makes this process's listening sockets on `ports` drop new connection attempts while
 * those already queued are still accepted. Null where the platform cannot (the caller
 * closes as before) or no such listener is found. `alone`: no other process shares these
 * ports through SO_REUSEPORT, so that where the kernel refuses the filter, a sink may
 * stand in (it steers the whole group's connections).
 */
export function gateListeners(ports: readonly number[], options: { alone?: boolean } = {}): ListenerGate | null {
  const sys = socketCalls();
  if (sys === null) return null;
  let fds: number[];
  try {
    fds = listeningSockets(sys, ports);
  } catch {
    return null; // no /proc
  }
  let by: ListenerGate["by"] = "filter";
  const sinks: SynSink[] = [];
  const errnos = fds.map((fd) => attachSynFilter(sys, fd));
  let gated = fds.filter((_, i) => errnos[i] === 0);
  const filterErrno = errnos.find((e) => e !== 0);
  if (gated.length < fds.length && options.alone) {
    by = "sink";
    gated = gated.concat(fds.filter((fd, i) => {
      if (errnos[i] === 0) return false; // filtered already
      const sink = sinkNewConnections(sys, fd, (f) => listenerBacklog(sys, f));
      if (sink) sinks.push(sink);
      return sink !== null;
    }));
  }
  if (gated.length === 0) return null;
  const queued = () => gated.reduce((n, fd) => n + (listenerBacklog(sys, fd) ?? 0), 0);
  return {
    listeners: gated.length,
    by,
    ...(by === "sink" ? { filterErrno } : {}),
    release: () => {
      for (const sink of sinks.splice(0)) sink.release();
    },
    queued,
    async drained(maxMs, settleMs = 20) {
      const started = performance.now();
      let emptySince: number | null = null;
      for (;;) {
        const now = performance.now();
        if (queued() === 0) {
          emptySince ??= now;
          // A handshake whose SYN came before the filter may still complete: wait a little.
          if (now - emptySince >= settleMs) return { waitedMs: now - started, empty: true };
        } else {
          emptySince = null;
        }
        if (now - started >= maxMs) return { waitedMs: now - started, empty: false };
        await Bun.sleep(2);
      }
    },
  };
}
