// A query folded into the bytes the search keys are made of, with the fold map the build
// stored in places.bin (scripts/places/fold-map.ts defines it): the same characters fold
// the same way in the keys and in the query, whatever the runtime's Unicode tables say.
// Written into a buffer the caller owns: no allocation per query.

export interface FoldMap {
  /** BMP code points that fold to something else, ascending. */
  codes: Uint16Array;
  offsets: Uint32Array;
  bytes: Uint8Array;
}

const SPACE = 0x20;

/** Index of `cp` in `codes`, or -1. */
function find(codes: Uint16Array, cp: number): number {
  let lo = 0;
  let hi = codes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = codes[mid]!;
    if (v < cp) lo = mid + 1;
    else if (v > cp) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * Folds `text` into `out` (UTF-8, word breaks collapsed to one space, none at either end)
 * and answers the length, or -1 when `out` is too small. A lone surrogate is a word break.
 */
export function foldQuery(text: string, map: FoldMap, out: Uint8Array): number {
  let n = 0;
  let pendingSpace = false;
  const limit = out.length;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      pendingSpace = n > 0;
      continue;
    }
    const at = cp <= 0xffff ? find(map.codes, cp) : -1;
    if (at < 0 && cp === SPACE) {
      // The space folds to itself, so the map does not list it; it is a word break all the same.
      pendingSpace = n > 0;
      continue;
    }
    if (at < 0) {
      // Unchanged: the character's own UTF-8.
      const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (pendingSpace) {
        if (n >= limit) return -1;
        out[n++] = SPACE;
        pendingSpace = false;
      }
      if (n + size > limit) return -1;
      if (size === 1) out[n++] = cp;
      else if (size === 2) {
        out[n++] = 0xc0 | (cp >> 6);
        out[n++] = 0x80 | (cp & 63);
      } else if (size === 3) {
        out[n++] = 0xe0 | (cp >> 12);
        out[n++] = 0x80 | ((cp >> 6) & 63);
        out[n++] = 0x80 | (cp & 63);
      } else {
        out[n++] = 0xf0 | (cp >> 18);
        out[n++] = 0x80 | ((cp >> 12) & 63);
        out[n++] = 0x80 | ((cp >> 6) & 63);
        out[n++] = 0x80 | (cp & 63);
      }
      continue;
    }
    for (let b = map.offsets[at]!; b < map.offsets[at + 1]!; b++) {
      const byte = map.bytes[b]!;
      if (byte === SPACE) {
        pendingSpace = n > 0;
        continue;
      }
      if (pendingSpace) {
        if (n >= limit) return -1;
        out[n++] = SPACE;
        pendingSpace = false;
      }
      if (n >= limit) return -1;
      out[n++] = byte;
    }
  }
  return n;
}
