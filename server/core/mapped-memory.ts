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

import { dlopen, toArrayBuffer, type Pointer } from "bun:ffi";

const PROT_READ = 0x1;
export const MAP_SHARED = 0x01;
export const MAP_PRIVATE = 0x02;
/** mmap's MAP_FAILED, (void *) -1, as bun:ffi returns a pointer. */
const MAP_FAILED = 2 ** 64 - 1;

type Native = {
  mmap(address: null, length: number, prot: number, flags: number, fd: number, offset: number): Pointer | null;
  munmap: Pointer;
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
    native = munmap === null ? null : { mmap: (...args) => lib.symbols.mmap(...args) as Pointer | null, munmap };
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
