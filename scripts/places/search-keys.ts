// The search keys of the places table: each name folded (fold-map.ts), and each later word
// start of it ("new york city", "york city", "city"), so a query finds a place by any run
// of whole words of its name, the last possibly a prefix. Keys are sorted by their UTF-8
// bytes (code point order), the order the server's binary search compares in.

import { foldText } from "./fold-map.ts";

/** How many times heavier than any place of that name a place must be for its alternate name to rank as a name. */
export const ALTERNATE_DWARFS = 10;
/** Longer names are not typed; their keys would only grow the table. */
export const MAX_KEY_BYTES = 100;
const SPACE = 0x20;

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

/** A subset of the keys (a country's): their indexes, ascending, and where each one's postings start in the subset, then the end. */
export interface KeySubset {
  keys: Uint32Array;
  postingStarts: Uint32Array;
}

/**
 * Every prefix (whole characters) of the keys whose range holds more than `threshold`
 * postings, as (first key index, byte length), in (key, length) order: the server answers
 * those from a precomputed list instead of scanning the range. With `subset`, only its keys
 * and postings count, and the first key index is the subset's first key of the prefix.
 */
export function heavyPrefixes(keys: Pick<KeyIndex, "keyOffsets" | "keyBytes" | "postingStarts">, threshold: number, subset?: KeySubset): [number, number][] {
  const { keyOffsets, keyBytes } = keys;
  const postingStarts = subset?.postingStarts ?? keys.postingStarts;
  const keyCount = subset ? subset.keys.length : keyOffsets.length - 1;
  const keyAt = (k: number) => (subset ? subset.keys[k]! : k);
  const heavy: [number, number][] = [];
  // Open prefixes of the current key: byte length and first key index.
  const open: { length: number; first: number }[] = [];
  let previous = -1;
  for (let k = 0; k <= keyCount; k++) {
    let lcp = 0;
    if (k < keyCount && previous >= 0) {
      const a = keyOffsets[keyAt(previous)]!;
      const b = keyOffsets[keyAt(k)]!;
      const max = Math.min(keyOffsets[keyAt(previous) + 1]! - a, keyOffsets[keyAt(k) + 1]! - b);
      while (lcp < max && keyBytes[a + lcp] === keyBytes[b + lcp]) lcp++;
    }
    while (open.length > 0 && open[open.length - 1]!.length > lcp) {
      const { length, first } = open.pop()!;
      if (postingStarts[k]! - postingStarts[first]! > threshold) heavy.push([keyAt(first), length]);
    }
    if (k === keyCount) break;
    const start = keyOffsets[keyAt(k)]!;
    const end = keyOffsets[keyAt(k) + 1]!;
    for (let at = start + lcp + 1; at <= end; at++) {
      // A prefix ends on a character boundary: the next byte is not a continuation byte.
      if (at < end && (keyBytes[at]! & 0xc0) === 0x80) continue;
      // A folded query never ends in a space: such a prefix is never asked for.
      if (keyBytes[at - 1] === SPACE) continue;
      open.push({ length: at - start, first: k });
    }
    previous = k;
  }
  heavy.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return heavy;
}

/** The first key of all that starts with the first `length` bytes of key `key`: what the server's binary search finds for that prefix. */
export function firstKeyWithPrefix(keys: Pick<KeyIndex, "keyOffsets" | "keyBytes">, key: number, length: number): number {
  const { keyOffsets, keyBytes } = keys;
  const prefix = keyOffsets[key]!;
  const below = (k: number) => {
    const start = keyOffsets[k]!;
    const m = Math.min(length, keyOffsets[k + 1]! - start);
    for (let i = 0; i < m; i++) {
      const d = keyBytes[start + i]! - keyBytes[prefix + i]!;
      if (d !== 0) return d < 0;
    }
    return keyOffsets[k + 1]! - start < length;
  };
  let lo = 0;
  let hi = key;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every posting's index grouped by its place's country (ascending within one), and per
 * country the keys it has postings under, with their counts: the country index the server
 * narrows a country-restricted query with, and what its heavy prefixes are counted on.
 */
export function countryPostings(keys: Pick<KeyIndex, "postingStarts" | "postings">, countryOf: (index: number) => number, countryCount: number): {
  starts: Uint32Array;
  postings: Uint32Array;
  subsets: KeySubset[];
} {
  const { postingStarts, postings } = keys;
  const perCountry: number[][] = Array.from({ length: countryCount }, () => []);
  const subsetKeys: number[][] = Array.from({ length: countryCount }, () => []);
  const subsetStarts: number[][] = Array.from({ length: countryCount }, () => [0]);
  for (let k = 0; k + 1 < postingStarts.length; k++) {
    for (let p = postingStarts[k]!; p < postingStarts[k + 1]!; p++) {
      const c = countryOf(postings[p]! >>> 1);
      const list = perCountry[c]!;
      list.push(p);
      const ks = subsetKeys[c]!;
      if (ks[ks.length - 1] !== k) {
        ks.push(k);
        subsetStarts[c]!.push(list.length);
      } else subsetStarts[c]![ks.length] = list.length;
    }
  }
  const starts = new Uint32Array(countryCount + 1);
  perCountry.forEach((list, c) => (starts[c + 1] = starts[c]! + list.length));
  const all = new Uint32Array(starts[countryCount]!);
  perCountry.forEach((list, c) => all.set(list, starts[c]!));
  const subsets = subsetKeys.map((ks, c) => ({ keys: new Uint32Array(ks), postingStarts: new Uint32Array(subsetStarts[c]!) }));
  return { starts, postings: all, subsets };
}
