// Stopping new connections to a listener where a socket filter on it is refused: steer
// them to a full queue of our own instead.
//
// The drain's first choice is a SYN-dropping filter on the listener (ops/accept-queue.ts,
// SO_ATTACH_FILTER). Stock Linux lets any process filter its own socket, but some kernels
// refuse it on TCP sockets to a process without CAP_NET_ADMIN (measured on the project's
// sandbox kernel: EPERM for uid 1000 on the host too, while UDP and Unix sockets and
// SO_ATTACH_REUSEPORT_CBPF are allowed), and a container runs without that capability.
//
// A reuseport group gives the same result with no capability:
//   1. a second listener, the sink, joins the listener's port with SO_REUSEPORT (the
//      kernel makes the listener and the sink one group, listener first) and a backlog of
//      0, so that one queued connection fills it;
//   2. a group program (SO_ATTACH_REUSEPORT_CBPF) sends only our own filler connection,
//      known by its source port, to the sink; every other SYN still goes to the listener.
//      It is attached before the sink joins where the listener was bound with SO_REUSEPORT
//      (process/service.ts always binds so), so no client's SYN ever lands in the sink;
//   3. once the filler sits in the sink's queue, the program sends every SYN to the sink,
//      whose full queue drops it: the client retransmits a second later and meets another
//      instance, or a refusal once this one has gone (never accepted, nothing lost).
// The listener meanwhile accepts what it had queued; it is then closed with an empty queue.
//
// Only for a listener alone on its port: in a group shared with other processes (WORKERS
// above 1) the program would steer their connections too.

import {
  AF_INET, AF_INET6, IPPROTO_IPV6, IPV6_V6ONLY, SO_ATTACH_REUSEPORT_CBPF, SO_REUSEADDR, SO_REUSEPORT, SOCK_CLOEXEC, SOCK_FPROG_BYTES,
  SOCK_NONBLOCK, SOCK_STREAM, SOL_SOCKET, intOption, nativeProgram, type BpfInstruction, type SocketCalls,
} from "./socket-calls.ts";

const BPF_LD_W_ABS = 0x20;
const BPF_LD_H_ABS = 0x28;
const BPF_LD_H_IND = 0x48;
const BPF_LDX_B_MSH = 0xb1;
const BPF_JMP_JA = 0x05;
const BPF_JMP_JEQ_K = 0x15;
const BPF_RET_K = 0x06;
// Offsets from the ancillary area and from the network header (the group program sees the
// packet after its TCP header, so it reads the source port through the network header).
const SKF_AD_PROTOCOL = -0x1000;
const SKF_NET_OFF = -0x100000;
const ETH_P_IP = 0x0800;
const ETH_P_IPV6 = 0x86dd;
const IPV6_HEADER_BYTES = 40;
const LISTENER = 0; // index in the group: the listener was there first
const SINK = 1;

/** Index SINK for a SYN from `port`, else LISTENER. */
function fillerToSink(port: number): BpfInstruction[] {
  return [
    [BPF_LD_W_ABS, 0, 0, SKF_AD_PROTOCOL],
    [BPF_JMP_JEQ_K, 0, 3, ETH_P_IP],
    [BPF_LDX_B_MSH, 0, 0, SKF_NET_OFF], // X = the IPv4 header's length
    [BPF_LD_H_IND, 0, 0, SKF_NET_OFF], // A = TCP source port
    [BPF_JMP_JA, 0, 0, 2],
    [BPF_JMP_JEQ_K, 0, 3, ETH_P_IPV6],
    [BPF_LD_H_ABS, 0, 0, SKF_NET_OFF + IPV6_HEADER_BYTES],
    [BPF_JMP_JEQ_K, 0, 1, port],
    [BPF_RET_K, 0, 0, SINK],
    [BPF_RET_K, 0, 0, LISTENER],
  ];
}
const ALL_TO_SINK: BpfInstruction[] = [[BPF_RET_K, 0, 0, SINK]];

type NativeProgram = NonNullable<ReturnType<typeof nativeProgram>>;

function attachGroupProgram(sys: SocketCalls, fd: number, program: NativeProgram): boolean {
  return sys.setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, program.fprog, SOCK_FPROG_BYTES) === 0;
}

function sockName(sys: SocketCalls, fd: number): Uint8Array | null {
  const address = new Uint8Array(128);
  const length = new Uint32Array([address.length]);
  return sys.getsockname(fd, address, length) === 0 ? address.slice(0, length[0]) : null;
}

/** Where to connect to reach a listener bound to `address`: the same, loopback for a wildcard. */
function reachable(address: Uint8Array): Uint8Array {
  const to = address.slice();
  const family = new DataView(to.buffer).getUint16(0, true);
  if (family === AF_INET && to.subarray(4, 8).every((b) => b === 0)) to.set([127, 0, 0, 1], 4);
  if (family === AF_INET6 && to.subarray(8, 24).every((b) => b === 0)) to[23] = 1; // ::1
  return to;
}

export interface SynSink {
  /** Closes the sink and the filler (new attempts are then refused): after the listener is closed. */
  release(): void;
}

/**
 * Steers every new connection for listener `fd` into a full sink queue (see above); null
 * where the kernel refuses any step, with nothing left behind. `queued(fd)` reads a
 * listener's accept queue (TCP_INFO).
 */
export function sinkNewConnections(sys: SocketCalls, fd: number, queued: (fd: number) => number | null): SynSink | null {
  const address = sockName(sys, fd);
  if (address === null) return null;
  const family = new DataView(address.buffer).getUint16(0, true);
  if (family !== AF_INET && family !== AF_INET6) return null;
  const opened: number[] = [];
  const programs: NativeProgram[] = [];
  const release = () => {
    for (const f of opened.splice(0)) sys.close(f);
  };
  try {
    if (sys.setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, intOption(1), 4) !== 0) return null;
    const sink = sys.socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sink < 0) return null;
    opened.push(sink);
    if (family === AF_INET6) {
      const v6only = new Uint8Array(4);
      if (sys.getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, v6only, new Uint32Array([4])) !== 0) return fail();
      if (sys.setsockopt(sink, IPPROTO_IPV6, IPV6_V6ONLY, v6only, 4) !== 0) return fail();
    }
    // SO_REUSEADDR as Bun's listener has it: the port's accepted and closing connections
    // (in its bind bucket, without SO_REUSEPORT) would otherwise make the bind conflict.
    if (sys.setsockopt(sink, SOL_SOCKET, SO_REUSEADDR, intOption(1), 4) !== 0) return fail();
    if (sys.setsockopt(sink, SOL_SOCKET, SO_REUSEPORT, intOption(1), 4) !== 0) return fail();
    if (sys.bind(sink, address, address.length) !== 0) return fail();
    // The filler's own port first, so that the program can name it before it connects.
    const filler = sys.socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (filler < 0) return fail();
    opened.push(filler);
    const any = new Uint8Array(address.length);
    new DataView(any.buffer).setUint16(0, family, true);
    if (sys.bind(filler, any, any.length) !== 0) return fail();
    const fillerAddress = sockName(sys, filler);
    if (fillerAddress === null) return fail();
    const fillerPort = (fillerAddress[2]! << 8) | fillerAddress[3]!;
    // Both programs made first: making one (native memory, loaded on first use) between the
    // sink's listen() and the attach widened the window below (CI, 2026-11-27: the drain
    // went ungated in both container drain tests, 7 and 9 resets).
    for (const instructions of [fillerToSink(fillerPort), ALL_TO_SINK]) {
      const program = nativeProgram(instructions);
      if (program === null) return fail();
      programs.push(program);
    }
    const [steerFiller, steerAll] = programs as [NativeProgram, NativeProgram];
    // A listener bound with SO_REUSEPORT (the service's always is) has its group already:
    // the program goes on it first, and the sink joins a group that sends it nothing but the
    // filler. Otherwise the group is made as the sink joins, and a SYN can land in the sink
    // before the program does (CI, 2026-11-27: the drain went ungated, 6 connections reset).
    const early = attachGroupProgram(sys, fd, steerFiller);
    if (sys.listen(sink, 0) !== 0) return fail();
    if (!early && !attachGroupProgram(sys, sink, steerFiller)) return fail();
    if (queued(sink) !== 0) return fail(); // someone else's connection is in the sink
    const target = reachable(address);
    sys.connect(filler, target, target.length); // EINPROGRESS: the loopback handshake completes in the kernel
    for (let i = 0; i < 1000 && queued(sink) !== 1; i++) Bun.sleepSync(1);
    if (queued(sink) !== 1) return fail();
    if (!attachGroupProgram(sys, sink, steerAll)) return fail();
    freePrograms();
    return { release };
  } catch {
    return fail();
  }

  function freePrograms(): void {
    for (const program of programs.splice(0)) program.free(); // the kernel keeps its own copy
  }

  function fail(): null {
    freePrograms();
    release();
    return null;
  }
}
