// A generated table as an ArrayBuffer mapped read-only: the file is opened O_RDONLY and
// mapped PROT_READ (core/mapped-memory.ts), so the service starts as any user that may
// read its tables, on a read-only filesystem too (Bun.mmap opens O_RDWR and needed write
// permission). The mapping is MAP_PRIVATE and never written: every worker process mapping
// the same file shares the page cache's pages instead of holding a copy each. Every failure
// names the file.

import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { TableFormatError } from "../core/errors.ts";
import { canMapReadOnly, MAP_PRIVATE, mapReadOnly } from "../core/mapped-memory.ts";

const failure = (path: string, error: unknown) => {
  const code = (error as { code?: string }).code;
  return new TableFormatError(path, code === "ENOENT" ? "missing: run `bun run build`" : `unreadable (${code ?? String(error)})`);
};

export function mapTable(path: string): ArrayBuffer {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw failure(path, error);
  }
  try {
    const size = fstatSync(fd).size;
    // mmap refuses an empty file; an empty buffer lets the reader say "truncated".
    if (size === 0) return new ArrayBuffer(0);
    // Without libc through bun:ffi, a private copy read through the same O_RDONLY descriptor.
    if (!canMapReadOnly()) return new Uint8Array(readFileSync(fd)).buffer as ArrayBuffer;
    return mapReadOnly(fd, size, MAP_PRIVATE);
  } catch (error) {
    throw error instanceof TableFormatError ? error : failure(path, error);
  } finally {
    closeSync(fd);
  }
}
