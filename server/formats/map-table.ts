// A generated table as an ArrayBuffer mapped read-only (MAP_PRIVATE, never written): every
// worker process maps the same file, so its pages are the page cache's, held once however
// many workers there are, instead of one private copy each. The build replaces a table by
// rename (scripts/write-atomically.ts), never in place, so a mapping stays valid until the
// table is loaded again. Every failure names the file.

import { statSync } from "node:fs";
import { TableFormatError } from "../core/errors.ts";

export function mapTable(path: string): ArrayBuffer {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new TableFormatError(path, code === "ENOENT" ? "missing: run `bun run build`" : `unreadable (${code ?? String(error)})`);
  }
  // mmap refuses an empty file; an empty buffer lets the reader say "truncated".
  if (size === 0) return new ArrayBuffer(0);
  const bytes = Bun.mmap(path, { shared: false });
  // A mapping is its own ArrayBuffer; anything else is copied out whole.
  return (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
}
