// Read-only memory mappings through bun:ffi: mmap(PROT_READ) of a descriptor the caller
// opened O_RDONLY. Bun.mmap cannot do this: it opens the file O_RDWR and maps it writable,
// so a service without write permission on its tables (another user, a read-only root
// filesystem, a read-only volume) could not start at all.
//
// The mapping is native memory that the GC never moves. The ArrayBuffer over it is
// created with munmap as its deallocator (and the length as the deallocator's context:
// JSC calls `deallocator(bytes, context)`, which is exactly `munmap(address, length)`), so
// a table that is no longer referenced (after a reload) gives its mapping back instead of
// leaking it. Pages mapped PROT_READ cannot be written from JavaScript either: a stray write
// faults instead of changing a table that other workers share.

import { dlopen, ptr, toArrayBuffer, type Pointer } from "bun:ffi";
import { closeSync, writeSync } from "node:fs";

const PROT_READ = 0x1;
export const MAP_SHARED = 0x01;
export const MAP_PRIVATE = 0x02;
/** mmap's MAP_FAILED, (void *) -1, as bun:ffi returns a pointer. */
const MAP_FAILED = 2 ** 64 - 1;

type Native = {
  mmap(address: null, length: number, prot: number, flags: number, fd: number, offset: number): Pointer | null;
  munmap: Pointer;
  memfdCreate(name: Uint8Array, flags: number): number;
  sendfile(out: number, from: number, offset: null, count: number): number;
  fcntl(fd: number, command: number, argument: number): number;
};
let native: Native | null | undefined;

function loadNative(): Native | null {
  if (native !== undefined) return native;
  try {
    const lib = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      mmap: { args: ["ptr", "usize", "i32", "i32", "i32", "i64"], returns: "ptr" },
      dlsym: { args: ["ptr", "cstring"], returns: "ptr" },
    });
    // RTLD_DEFAULT is a null handle on Linux; the name must be NUL-terminated.
    const munmap = lib.symbols.dlsym(null, Buffer.from("munmap\0")) as Pointer | null;
    if (munmap === null) return (native = null);
    const linux = process.platform === "linux" ? dlopen("libc.so.6", {
      memfd_create: { args: ["ptr", "u32"], returns: "i32" },
      sendfile: { args: ["i32", "i32", "ptr", "usize"], returns: "i64" },
      fcntl: { args: ["i32", "i32", "i32"], returns: "i32" },
    }).symbols : null;
    native = {
      mmap: (...args) => lib.symbols.mmap(...args) as Pointer | null,
      munmap,
      memfdCreate: (name, flags) => (linux ? linux.memfd_create(name, flags) : -1),
      sendfile: (out, from, offset, count) => (linux ? Number(linux.sendfile(out, from, offset, count)) : -1),
      fcntl: (fd, command, argument) => (linux ? linux.fcntl(fd, command, argument) : -1),
    };
  } catch {
    native = null;
  }
  return native;
}

/** True where read-only mappings can be made (libc reachable through bun:ffi). */
export function canMapReadOnly(): boolean {
  return loadNative() !== null;
}

/**
 * `length` bytes of `fd` from offset 0 mapped PROT_READ (MAP_PRIVATE or MAP_SHARED), as an
 * ArrayBuffer whose collection unmaps them. `length` must be > 0. The descriptor may be
 * closed as soon as this returns: the mapping holds its own reference to the file.
 */
export function mapReadOnly(fd: number, length: number, flags: typeof MAP_SHARED | typeof MAP_PRIVATE): ArrayBuffer {
  const n = loadNative();
  if (n === null) throw new Error("mmap is not reachable through bun:ffi here");
  const address = n.mmap(null, length, PROT_READ, flags, fd, 0);
  if (address === null || Number(address) === MAP_FAILED || Number(address) === -1) throw new Error(`mmap of ${length} bytes failed`);
  // The two extra arguments (deallocator context, deallocator) are bun:ffi's, not in bun-types.
  const withDeallocator = toArrayBuffer as unknown as (p: Pointer, offset: number, length: number, context: number, deallocator: Pointer) => ArrayBuffer;
  return withDeallocator(address, 0, length, length, n.munmap);
}

// Sealed memory files (memfd_create(2), fcntl(2) F_ADD_SEALS): an anonymous file in RAM
// that, once sealed against writing, growing and shrinking, no process can change, not even
// its creator, and whose descriptor can be handed to other processes to map the same pages.
const MFD_CLOEXEC = 0x1;
const MFD_ALLOW_SEALING = 0x2;
const F_ADD_SEALS = 1033;
const F_GET_SEALS = 1034;
const F_SEAL_SEAL = 0x1;
const F_SEAL_SHRINK = 0x2;
const F_SEAL_GROW = 0x4;
const F_SEAL_WRITE = 0x8;
/** What a sealed table must carry: its bytes and length can never change. */
const IMMUTABLE = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
/** sendfile moves at most this much per call (Linux caps a call at 0x7ffff000 bytes anyway). */
const CHUNK = 1 << 30;

/** True where sealed memory files can be made (Linux, libc through bun:ffi). */
export function canSeal(): boolean {
  const n = loadNative();
  if (n === null || process.platform !== "linux") return false;
  sealSupport ??= probeSeal(n);
  return sealSupport;
}
let sealSupport: boolean | undefined;

function probeSeal(n: Native): boolean {
  const fd = n.memfdCreate(Buffer.from("zonetime-probe\0"), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return false;
  try {
    return n.fcntl(fd, F_ADD_SEALS, IMMUTABLE | F_SEAL_SEAL) === 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * A sealed memory file holding what is readable from `from` (a descriptor opened O_RDONLY, at
 * offset 0), named `name` (it shows in /proc/PID/fd as `/memfd:NAME`). Returns its descriptor
 * (close-on-exec) and its length, which is whatever was there to read: a file truncated while
 * it is copied gives a shorter copy, never a fault, and the caller checks the length and the
 * checksum of the sealed bytes, which can no longer change.
 */
export function sealedCopy(from: number, name: string): { fd: number; length: number } {
  const n = loadNative();
  if (n === null || !canSeal()) throw new Error("sealed memory files (memfd_create) are not available here");
  const fd = n.memfdCreate(Buffer.from(`${name}\0`), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) throw new Error(`memfd_create failed for ${name}`);
  try {
    let length = 0;
    for (;;) {
      const moved = n.sendfile(fd, from, null, CHUNK);
      if (moved < 0) throw new Error(`copying ${name} into memory failed (sendfile)`);
      if (moved === 0) break;
      length += moved;
    }
    if (n.fcntl(fd, F_ADD_SEALS, IMMUTABLE | F_SEAL_SEAL) !== 0) throw new Error(`sealing ${name} failed`);
    return { fd, length };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** True when `fd` is a memory file sealed against writing, growing and shrinking. */
export function isSealed(fd: number): boolean {
  const n = loadNative();
  if (n === null) return false;
  const seals = n.fcntl(fd, F_GET_SEALS, 0);
  return seals >= 0 && (seals & IMMUTABLE) === IMMUTABLE;
}

/** A sealed memory file holding `bytes` (small ones: a manifest). Returns its descriptor. */
export function sealedBytes(bytes: Uint8Array, name: string): number {
  const n = loadNative();
  if (n === null || !canSeal()) throw new Error("sealed memory files (memfd_create) are not available here");
  const fd = n.memfdCreate(Buffer.from(`${name}\0`), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) throw new Error(`memfd_create failed for ${name}`);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    if (n.fcntl(fd, F_ADD_SEALS, IMMUTABLE | F_SEAL_SEAL) !== 0) throw new Error(`sealing ${name} failed`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

// Another thread of this process reading a buffer's bytes: a mapped table is not something
// postMessage can move, and a copy made to send takes its sender 3 ms per 5 MB (the new
// pages' first touch). So the sender tells where the bytes are, and the receiver copies them
// on its own thread, while the sender keeps the buffer alive until it says it is done.

/** Where `buffer`'s bytes are in this process (they never move: mapped, or an ArrayBuffer's store). */
export function addressOf(buffer: ArrayBuffer): number {
  return ptr(new Uint8Array(buffer));
}

/** A copy of the `length` bytes at `address` (addressOf), made by the calling thread; their owner keeps them alive meanwhile. */
export function copyOf(address: number, length: number): ArrayBuffer {
  return toArrayBuffer(address as Pointer, 0, length).slice(0);
}
