// A generated table as a read-only ArrayBuffer that nothing can change underneath: the file
// is opened O_RDONLY (so any user that may read it can load it, on a read-only filesystem
// too: Bun.mmap opened O_RDWR), copied into a memory file sealed against writing, growing and
// shrinking, and mapped PROT_READ (core/mapped-memory.ts). A file changed in place afterwards
// (truncated, overwritten, cp over it) neither faults the process (SIGBUS, as a mapping of
// the file itself would) nor changes a byte of what was loaded. Where sealed memory is
// missing (not Linux), a private copy read through the same descriptor. The server loads its
// tables as one checked set and shares the sealed pages between workers
// (process/table-set.ts); this is the one-table form, for readers of a single file (the
// build reading its own output, scripts, benchmarks). Every failure names the file.

import { closeSync, openSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { TableFormatError } from "../core/errors.ts";
import { canSeal, MAP_SHARED, mapReadOnly, sealedCopy } from "../core/mapped-memory.ts";

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
    if (!canSeal()) return new Uint8Array(readFileSync(fd)).buffer as ArrayBuffer;
    const sealed = sealedCopy(fd, `zonetime:${basename(path)}`);
    try {
      // mmap refuses an empty file; an empty buffer lets the reader say "truncated".
      return sealed.length === 0 ? new ArrayBuffer(0) : mapReadOnly(sealed.fd, sealed.length, MAP_SHARED);
    } finally {
      closeSync(sealed.fd);
    }
  } catch (error) {
    throw error instanceof TableFormatError ? error : failure(path, error);
  } finally {
    closeSync(fd);
  }
}
