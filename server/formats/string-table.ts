// The string section both binary tables end with: u32 offsets (one per string, then the
// end) into a blob of UTF-8 strings. One writer and one reader, used by zones.bin and
// the IP tables alike.

export interface EncodedStrings {
  encoded: Uint8Array[];
  bytes: number;
}

export function encodeStrings(strings: readonly string[]): EncodedStrings {
  const encoder = new TextEncoder();
  const encoded = strings.map((s) => encoder.encode(s));
  return { encoded, bytes: encoded.reduce((n, b) => n + b.length, 0) };
}

/** Writes the offsets at `offsetsAt` and the blob at `blobAt` of `buffer`. */
export function writeStrings(buffer: ArrayBuffer, offsetsAt: number, blobAt: number, strings: EncodedStrings): void {
  const bytes = new Uint8Array(buffer);
  const offsets = new Uint32Array(buffer, offsetsAt, strings.encoded.length + 1);
  let cursor = 0;
  strings.encoded.forEach((b, i) => {
    offsets[i] = cursor;
    bytes.set(b, blobAt + cursor);
    cursor += b.length;
  });
  offsets[strings.encoded.length] = cursor;
}

/** Reads `count` strings; `fail` reports an offset outside the blob or invalid UTF-8. */
export function readStrings(
  buffer: ArrayBuffer,
  offsetsAt: number,
  blobAt: number,
  count: number,
  blobBytes: number,
  fail: (reason: string) => never,
): string[] {
  const bytes = new Uint8Array(buffer);
  const offsets = new Uint32Array(buffer, offsetsAt, count + 1);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const strings: string[] = [];
  for (let i = 0; i < count; i++) {
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    if (end < start || end > blobBytes) fail(`string ${i} lies outside the string section`);
    let text = "";
    try {
      text = decoder.decode(bytes.subarray(blobAt + start, blobAt + end));
    } catch {
      fail(`string ${i} is not valid UTF-8`);
    }
    // No string of ours (names, abbreviations, POSIX TZ strings, zone facts) holds a NUL: one
    // that does is a damaged file (zeroed bytes decode as NULs).
    if (text.includes("\u0000")) fail(`string ${i} holds a NUL byte`);
    strings.push(text);
  }
  return strings;
}
