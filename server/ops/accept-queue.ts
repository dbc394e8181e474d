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
// connection never receives a pure SYN. Where this is unavailable (not Linux, no FFI),
// `gateListeners` returns null and the caller just closes.

import { dlopen } from "bun:ffi";
import { readdirSync, readlinkSync } from "node:fs";
import { allocateNative } from "../core/native-memory.ts";

const SOL_SOCKET = 1;
const SO_ATTACH_FILTER = 26;
const IPPROTO_TCP = 6;
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
const DROP_NEW_SYNS: [code: number, jt: number, jf: number, k: number][] = [
  [BPF_LD_B_ABS, 0, 0, TCP_FLAGS_OFFSET],
  [BPF_ALU_AND_K, 0, 0, SYN | ACK],
  [BPF_JMP_JEQ_K, 0, 1, SYN],
  [BPF_RET_K, 0, 0, 0], // drop
  [BPF_RET_K, 0, 0, 0xffffffff], // keep the whole packet
];

// Buffers are passed as typed arrays, so bun:ffi takes their address at each call and no
// pointer to JavaScript memory outlives the call it was taken for. The one structure that
// holds a pointer (sock_fprog -> the filter program) lives in native memory instead.
interface SocketCalls {
  setsockopt(fd: number, level: number, name: number, value: Uint8Array, length: number): number;
  getsockopt(fd: number, level: number, name: number, value: Uint8Array, length: Uint32Array): number;
  getsockname(fd: number, address: Uint8Array, length: Uint32Array): number;
}

let calls: SocketCalls | null | undefined;

function socketCalls(): SocketCalls | null {
  if (calls !== undefined) return calls;
  try {
    // The structures below (tcp_info, sockaddr, sock_fprog) are laid out for 64-bit Linux.
    if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) return (calls = null);
    const libc = dlopen("libc.so.6", {
      setsockopt: { args: ["i32", "i32", "i32", "ptr", "u32"], returns: "i32" },
      getsockopt: { args: ["i32", "i32", "i32", "ptr", "ptr"], returns: "i32" },
      getsockname: { args: ["i32", "ptr", "ptr"], returns: "i32" },
    });
    calls = {
      setsockopt: (fd, level, name, value, length) => libc.symbols.setsockopt(fd, level, name, value, length),
      getsockopt: (fd, level, name, value, length) => libc.symbols.getsockopt(fd, level, name, value, length),
      getsockname: (fd, address, length) => libc.symbols.getsockname(fd, address, length),
    };
  } catch {
    calls = null;
  }
  return calls;
}

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

const SOCK_FILTER_BYTES = 8;
const SOCK_FPROG_BYTES = 16; // { u16 len; (padding) struct sock_filter *filter; } on 64-bit

/** The SYN filter program and the sock_fprog that points at it, in native memory: built once, never moved. */
let synFilter: Uint8Array | null | undefined;

function synFilterProgram(): Uint8Array | null {
  if (synFilter !== undefined) return synFilter;
  const program = allocateNative(DROP_NEW_SYNS.length * SOCK_FILTER_BYTES);
  const fprog = allocateNative(SOCK_FPROG_BYTES);
  if (program === null || fprog === null) return (synFilter = null);
  const code = new DataView(program.bytes.buffer);
  DROP_NEW_SYNS.forEach(([op, jt, jf, k], i) => {
    code.setUint16(i * SOCK_FILTER_BYTES, op, true);
    code.setUint8(i * SOCK_FILTER_BYTES + 2, jt);
    code.setUint8(i * SOCK_FILTER_BYTES + 3, jf);
    code.setUint32(i * SOCK_FILTER_BYTES + 4, k, true);
  });
  const header = new DataView(fprog.bytes.buffer);
  header.setUint16(0, DROP_NEW_SYNS.length, true);
  header.setBigUint64(8, BigInt(program.address), true);
  return (synFilter = fprog.bytes);
}

function attachSynFilter(sys: SocketCalls, fd: number): boolean {
  const fprog = synFilterProgram();
  return fprog !== null && sys.setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, fprog, SOCK_FPROG_BYTES) === 0;
}

export interface ListenerGate {
  /** How many listening sockets were found and now refuse new connections. */
  readonly listeners: number;
  /** Connections the kernel has queued for these listeners and the service has not accepted yet. */
  queued(): number;
  /** Resolves once the queues stayed empty for `settleMs`, or after `maxMs`; tells how long it took. */
  drained(maxMs: number, settleMs?: number): Promise<{ waitedMs: number; empty: boolean }>;
}

/**
 * Makes this process's listening sockets on `ports` drop new connection attempts while
 * those already queued are still accepted. Null where the platform cannot (the caller
 * closes as before) or no such listener is found.
 */
export function gateListeners(ports: readonly number[]): ListenerGate | null {
  const sys = socketCalls();
  if (sys === null) return null;
  let fds: number[];
  try {
    fds = listeningSockets(sys, ports);
  } catch {
    return null; // no /proc
  }
  const gated = fds.filter((fd) => attachSynFilter(sys, fd));
  if (gated.length === 0) return null;
  const queued = () => gated.reduce((n, fd) => n + (listenerBacklog(sys, fd) ?? 0), 0);
  return {
    listeners: gated.length,
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
