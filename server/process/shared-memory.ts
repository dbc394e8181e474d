// Memory shared by the supervisor and its workers, as nginx shares its limit_req zone
// between worker processes: one MAP_SHARED mapping of a file that is unlinked as soon as
// it is open, so nothing is left behind even after a kill -9. The supervisor creates it
// and passes the descriptor to each worker it spawns (as fd 3); each maps it itself.
//
// The mapping is native memory (mmap), never JS memory: the ArrayBuffer over it stays
// valid for the life of the process, which never unmaps it.

import { dlopen, toArrayBuffer } from "bun:ffi";
import { closeSync, existsSync, ftruncateSync, openSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PROT_READ_WRITE = 0x1 | 0x2;
const MAP_SHARED = 0x01;
/** mmap's MAP_FAILED, (void *) -1, as bun:ffi returns a pointer. */
const MAP_FAILED = 2 ** 64 - 1;

/** The descriptor a worker finds the supervisor's shared memory on (stdio 0-2, then this). */
export const INHERITED_FD = 3;

function mmap(fd: number, bytes: number): ArrayBuffer {
  const libc = dlopen("libc.so.6", {
    mmap: { args: ["ptr", "u64", "i32", "i32", "i32", "i64"], returns: "ptr" },
  });
  const address = libc.symbols.mmap(null, bytes, PROT_READ_WRITE, MAP_SHARED, fd, 0);
  if (address === null || Number(address) === MAP_FAILED || Number(address) === -1) throw new Error(`mmap of ${bytes} bytes failed`);
  return toArrayBuffer(address, 0, bytes);
}

/** New zero-filled shared memory: its descriptor (to hand to workers) and this process's view of it. */
export function createSharedMemory(bytes: number): { fd: number; buffer: ArrayBuffer } {
  const dir = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  const path = join(dir, `zonetime-${process.pid}-${crypto.randomUUID()}`);
  const fd = openSync(path, "wx+", 0o600);
  unlinkSync(path);
  try {
    ftruncateSync(fd, bytes);
    return { fd, buffer: mmap(fd, bytes) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The supervisor's shared memory, in a worker (the descriptor it inherited). */
export function mapInheritedMemory(bytes: number, fd = INHERITED_FD): ArrayBuffer {
  return mmap(fd, bytes);
}
