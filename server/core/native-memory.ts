// Memory that native code may keep writing to after the call that took its address.
//
// A pointer to a JavaScript typed array (`ptr(array)`) is only good for the call it is
// passed to: JavaScriptCore keeps a small typed array's elements in storage the engine
// manages, and once the code holding the array is optimised the elements may live
// elsewhere. zonetime learned this the hard way: a clock that took `ptr()` of a
// `Uint32Array(4)` once froze after a few hundred reads, while clock_gettime kept writing
// 16 bytes into memory the engine had reused (corrupting response bodies).
//
// Memory from libc's malloc never moves. It is viewed from JavaScript through an
// ArrayBuffer over that native memory (`toArrayBuffer`, no copy), so reads through the
// view always see what native code wrote at the fixed address.

import { dlopen, toArrayBuffer, type Pointer } from "bun:ffi";

export interface NativeBlock {
  /** The fixed native address, safe to hand to native code for the life of the process (or until `free`). */
  readonly address: Pointer;
  /** A view over the same bytes. */
  readonly bytes: Uint8Array;
  /** Returns the memory to libc; the view must not be used afterwards. */
  free(): void;
}

type Libc = { malloc(size: number): Pointer | null; free(p: Pointer): void };
let libc: Libc | null | undefined;

function loadLibc(): Libc | null {
  if (libc === undefined) libc = openLibc();
  return libc;
}

function openLibc(): Libc | null {
  try {
    const lib = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      malloc: { args: ["usize"], returns: "ptr" },
      free: { args: ["ptr"], returns: "void" },
    });
    // A pointer return is a number (or null); bun-types widens it to bigint as well.
    return { malloc: (size) => lib.symbols.malloc(size) as Pointer | null, free: (p) => lib.symbols.free(p) };
  } catch {
    return null;
  }
}

/** `size` zeroed bytes of native memory, or null where libc cannot be loaded. */
export function allocateNative(size: number): NativeBlock | null {
  const c = loadLibc();
  if (c === null) return null;
  const address = c.malloc(size);
  if (address === null) return null;
  const bytes = new Uint8Array(toArrayBuffer(address, 0, size));
  bytes.fill(0);
  return { address, bytes, free: () => c.free(address) };
}
