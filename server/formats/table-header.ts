// The header every generated table starts with, and the one check every reader runs before
// trusting a byte of it: a 64-byte header opening with 8 magic bytes, u16 major and u16
// minor format version (little-endian); a reader refuses another major version and a file
// whose length differs from what its header declares. Every failure names the file.

import { TableFormatError } from "../core/errors.ts";

export const HEADER_BYTES = 64;

export interface TableKind {
  /** 8 bytes, e.g. "ZTZONES\0". */
  magic: string;
  major: number;
  minor: number;
  /** For messages: "zone table", "IPv4 table". */
  what: string;
}

export function writeHeader(buffer: ArrayBuffer, kind: TableKind): DataView {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  for (let i = 0; i < 8; i++) bytes[i] = kind.magic.charCodeAt(i);
  view.setUint16(8, kind.major, true);
  view.setUint16(10, kind.minor, true);
  return view;
}

export interface OpenedTable {
  view: DataView;
  minor: number;
  /** Throws TableFormatError naming the file. */
  fail: (reason: string) => never;
  /** Fails unless the file is exactly `declared` bytes long. */
  checkLength: (declared: number) => void;
}

/**
 * Checks size, magic and major version of `buffer`, read from `file`; or of the `length` bytes
 * at `at` in it, for a table embedded in another (the view's offsets then start there).
 */
export function openTable(buffer: ArrayBuffer, file: string, kind: TableKind, at = 0, length = buffer.byteLength - at): OpenedTable {
  const fail = (reason: string): never => {
    throw new TableFormatError(file, reason);
  };
  if (length < HEADER_BYTES) fail(`truncated: ${length} bytes is shorter than the ${HEADER_BYTES}-byte header`);
  const bytes = new Uint8Array(buffer, at, length);
  for (let i = 0; i < 8; i++) {
    if (bytes[i] !== kind.magic.charCodeAt(i)) fail(`not a zonetime ${kind.what} (bad magic bytes)`);
  }
  const view = new DataView(buffer, at, length);
  const major = view.getUint16(8, true);
  if (major !== kind.major) fail(`format major version ${major} is not supported (this build reads ${kind.major}); rebuild with \`bun run build\``);
  const checkLength = (declared: number) => {
    if (declared !== length) {
      fail(`length mismatch: the header declares ${declared} bytes but the file has ${length} (truncated or corrupted)`);
    }
  };
  return { view, minor: view.getUint16(10, true), fail, checkLength };
}
