// The search keys of the places table: each name folded (fold-map.ts), and each later word
// start of it ("new york city", "york city", "city"), so a query finds a place by any run
// of whole words of its name, the last possibly a prefix. Keys are sorted by their UTF-8
// bytes (code point order), the order the server's binary search compares in.

import { foldText } from "./fold-map.ts";

/** How many times heavier than any place of that name a place must be for its alternate name to rank as a name. */
export const ALTERNATE_DWARFS = 10;
/** Longer names are not typed; their keys would only grow the table. */
export const MAX_KEY_BYTES = 100;

export interface KeyIndex {
  keyOffsets: Uint32Array;
  keyBytes: Uint8Array;
  postingStarts: Uint32Array;
  /** place index << 1 | 1 when the key starts a name. */
  postings: Uint32Array;
}

/**
 * `namesOf(i)` lists place i's names (in rank order of places), its own name first: that
 * one gives its later words too; the others (alternate names, often transliterations
 * with stray spaces: "ka raka s" for Caracas) are matched from their start only.
 */
export function buildKeys(
  placeCount: number,
  namesOf: (index: number) => readonly string[],
  weightOf: (index: number) => number,
  fold: ReadonlyMap<number, string>,
): KeyIndex {
  const encoder = new TextEncoder();
  // An alternate name ranks with names only when its place dwarfs every place of that very
  // name: "Bombay" is Mumbai, but "Philadelphia" (an old name of Amman) stays Philadelphia.
  const heaviestNamed = new Map<string, number>();
  for (let index = 0; index < placeCount; index++) {
    const key = foldText(namesOf(index)[0]!, fold);
    heaviestNamed.set(key, Math.max(heaviestNamed.get(key) ?? 0, weightOf(index)));
  }
  // key -> place index -> full flag
  const byKey = new Map<string, Map<number, number>>();
  for (let index = 0; index < placeCount; index++) {
    for (const [n, name] of namesOf(index).entries()) {
      const folded = foldText(name, fold);
      // One character is an initial, not a name ("S" among Caracas' alternate names).
      if ([...folded].length < 2 || encoder.encode(folded).length > MAX_KEY_BYTES) continue;
      let key = folded;
      let full = n === 0 || weightOf(index) > ALTERNATE_DWARFS * (heaviestNamed.get(folded) ?? 0) ? 1 : 0;
      for (;;) {
        let places = byKey.get(key);
        if (places === undefined) byKey.set(key, (places = new Map()));
        places.set(index, (places.get(index) ?? 0) | full);
        const space = key.indexOf(" ");
        if (space < 0 || n > 0) break;
        key = key.slice(space + 1);
        full = 0;
        // A lone letter or digit ("Zürich (Kreis 11)" -> "11" is kept, "Ka Raka S" -> "s" is not).
        if ([...key].length < 2) break;
      }
    }
  }
  const keys = [...byKey.keys()].map((text) => ({ text, bytes: Buffer.from(encoder.encode(text)) }));
  keys.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const keyOffsets = new Uint32Array(keys.length + 1);
  const postingStarts = new Uint32Array(keys.length + 1);
  let bytes = 0;
  let postingCount = 0;
  keys.forEach((k, i) => {
    keyOffsets[i] = bytes;
    postingStarts[i] = postingCount;
    bytes += k.bytes.length;
    postingCount += byKey.get(k.text)!.size;
  });
  keyOffsets[keys.length] = bytes;
  postingStarts[keys.length] = postingCount;
  const keyBytes = new Uint8Array(bytes);
  const postings = new Uint32Array(postingCount);
  keys.forEach((k, i) => {
    keyBytes.set(k.bytes, keyOffsets[i]!);
    // Names first, then later words; each by rank.
    const entries = [...byKey.get(k.text)!].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    entries.forEach(([index, full], j) => (postings[postingStarts[i]! + j] = (index << 1) | full));
  });
  return { keyOffsets, keyBytes, postingStarts, postings };
}

/**
 * Every prefix (whole characters) of the keys whose range holds more than `threshold`
 * postings, as (first key index, byte length), in (key, length) order: the server answers
 * those from a precomputed list instead of scanning the range.
 */
export function heavyPrefixes(keys: Pick<KeyIndex, "keyOffsets" | "keyBytes" | "postingStarts">, threshold: number): [number, number][] {
  const { keyOffsets, keyBytes, postingStarts } = keys;
  const keyCount = keyOffsets.length - 1;
  const heavy: [number, number][] = [];
  // Open prefixes of the current key: byte length and first key index.
  const open: { length: number; first: number }[] = [];
  let previous = -1;
  for (let k = 0; k <= keyCount; k++) {
    let lcp = 0;
    if (k < keyCount && previous >= 0) {
      const a = keyOffsets[previous]!;
      const b = keyOffsets[k]!;
      const max = Math.min(keyOffsets[previous + 1]! - a, keyOffsets[k + 1]! - b);
      while (lcp < max && keyBytes[a + lcp] === keyBytes[b + lcp]) lcp++;
    }
    while (open.length > 0 && open[open.length - 1]!.length > lcp) {
      const { length, first } = open.pop()!;
      if (postingStarts[k]! - postingStarts[first]! > threshold) heavy.push([first, length]);
    }
    if (k === keyCount) break;
    const start = keyOffsets[k]!;
    const end = keyOffsets[k + 1]!;
    for (let at = start + lcp + 1; at <= end; at++) {
      // A prefix ends on a character boundary: the next byte is not a continuation byte.
      if (at < end && (keyBytes[at]! & 0xc0) === 0x80) continue;
      open.push({ length: at - start, first: k });
    }
    previous = k;
  }
  heavy.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return heavy;
}
