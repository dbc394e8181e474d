// The libc socket calls the drain needs on listeners Bun opened (ops/accept-queue.ts,
// ops/syn-sink.ts), bound once through bun:ffi. Linux on 64-bit only: the structures the
// callers lay out (tcp_info, sockaddr, sock_fprog) are that platform's.
//
// Buffers are passed as typed arrays, so bun:ffi takes their address at each call and no
// pointer to JavaScript memory outlives the call it was taken for. A structure that holds
// a pointer (sock_fprog -> a filter program) must live in native memory instead
// (core/native-memory.ts).

import { dlopen, read, type Pointer } from "bun:ffi";
import { allocateNative } from "../core/native-memory.ts";

export interface SocketCalls {
  setsockopt(fd: number, level: number, name: number, value: Uint8Array, length: number): number;
  getsockopt(fd: number, level: number, name: number, value: Uint8Array, length: Uint32Array): number;
  getsockname(fd: number, address: Uint8Array, length: Uint32Array): number;
  socket(domain: number, type: number, protocol: number): number;
  bind(fd: number, address: Uint8Array, length: number): number;
  listen(fd: number, backlog: number): number;
  connect(fd: number, address: Uint8Array, length: number): number;
  close(fd: number): number;
  /** errno of the last failed call (read right after it, before any other native call). */
  errno(): number;
}

let calls: SocketCalls | null | undefined;

export function socketCalls(): SocketCalls | null {
  if (calls !== undefined) return calls;
  try {
    if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) return (calls = null);
    const libc = dlopen("libc.so.6", {
      setsockopt: { args: ["i32", "i32", "i32", "ptr", "u32"], returns: "i32" },
      getsockopt: { args: ["i32", "i32", "i32", "ptr", "ptr"], returns: "i32" },
      getsockname: { args: ["i32", "ptr", "ptr"], returns: "i32" },
      socket: { args: ["i32", "i32", "i32"], returns: "i32" },
      bind: { args: ["i32", "ptr", "u32"], returns: "i32" },
      listen: { args: ["i32", "i32"], returns: "i32" },
      connect: { args: ["i32", "ptr", "u32"], returns: "i32" },
      close: { args: ["i32"], returns: "i32" },
      __errno_location: { args: [], returns: "ptr" },
    });
    const s = libc.symbols;
    calls = {
      setsockopt: (fd, level, name, value, length) => s.setsockopt(fd, level, name, value, length),
      getsockopt: (fd, level, name, value, length) => s.getsockopt(fd, level, name, value, length),
      getsockname: (fd, address, length) => s.getsockname(fd, address, length),
      socket: (domain, type, protocol) => s.socket(domain, type, protocol),
      bind: (fd, address, length) => s.bind(fd, address, length),
      listen: (fd, backlog) => s.listen(fd, backlog),
      connect: (fd, address, length) => s.connect(fd, address, length),
      close: (fd) => s.close(fd),
      // errno is thread-local libc memory: never moved by the GC.
      errno: () => read.i32(s.__errno_location() as Pointer, 0),
    };
  } catch {
    calls = null;
  }
  return calls;
}

export const SOL_SOCKET = 1;
export const SO_REUSEADDR = 2;
export const SO_REUSEPORT = 15;
export const SO_ATTACH_FILTER = 26;
export const SO_ATTACH_REUSEPORT_CBPF = 51;
export const IPPROTO_TCP = 6;
export const IPPROTO_IPV6 = 41;
export const IPV6_V6ONLY = 26;
export const AF_INET = 2;
export const AF_INET6 = 10;
export const SOCK_STREAM = 1;
export const SOCK_NONBLOCK = 0o4000;
export const SOCK_CLOEXEC = 0o2000000;

/** An int option's value as setsockopt wants it. */
export function intOption(value: number): Uint8Array {
  return new Uint8Array(new Int32Array([value]).buffer);
}

/** One classic BPF instruction: opcode, jump-if-true, jump-if-false, constant. */
export type BpfInstruction = [code: number, jt: number, jf: number, k: number];

const SOCK_FILTER_BYTES = 8;
export const SOCK_FPROG_BYTES = 16; // { u16 len; (padding) struct sock_filter *filter; } on 64-bit

/**
 * A classic BPF program and the sock_fprog that points at it, both in native memory (the
 * kernel reads them during setsockopt and copies the program). Null where libc cannot
 * allocate. `free` once the program is attached, or never for one kept for the process.
 */
export function nativeProgram(instructions: readonly BpfInstruction[]): { fprog: Uint8Array; free(): void } | null {
  const program = allocateNative(instructions.length * SOCK_FILTER_BYTES);
  const fprog = allocateNative(SOCK_FPROG_BYTES);
  if (program === null || fprog === null) {
    program?.free();
    fprog?.free();
    return null;
  }
  const code = new DataView(program.bytes.buffer);
  instructions.forEach(([op, jt, jf, k], i) => {
    code.setUint16(i * SOCK_FILTER_BYTES, op, true);
    code.setUint8(i * SOCK_FILTER_BYTES + 2, jt);
    code.setUint8(i * SOCK_FILTER_BYTES + 3, jf);
    code.setUint32(i * SOCK_FILTER_BYTES + 4, k >>> 0, true);
  });
  const header = new DataView(fprog.bytes.buffer);
  header.setUint16(0, instructions.length, true);
  header.setBigUint64(8, BigInt(program.address), true);
  return { fprog: fprog.bytes, free: () => { program.free(); fprog.free(); } };
}
