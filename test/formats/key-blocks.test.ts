// The front-coded key blocks both search indexes use (places.bin, names.bin): every query's
// range of keys and entries equals a brute-force scan of the plain sorted keys, across
// block boundaries, keys that are prefixes of others, bytes above 0x7f and runs longer
// than many blocks; and a round trip of every key through keyAt and checkKeyBlocks.

import { describe, expect, test } from "bun:test";
import { checkKeyBlocks, encodeKeyBlocks, KEY_BLOCK, KeyBlockIndex } from "../../server/formats/key-blocks.ts";

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Sorted, distinct keys over a small alphabet (long shared prefixes), with random entry counts. */
function keySet(r: () => number, size: number): { keys: Uint8Array[]; counts: number[] } {
  const alphabet = [0x20, 0x61, 0x62, 0x63, 0x7a, 0xc3, 0xa9, 0xff];
  const seen = new Map<string, Uint8Array>();
  while (seen.size < size) {
    // Mostly short keys; some of 120-255 bytes (a rest of 128 or more takes the long form).
    const length = r() < 0.03 ? 120 + Math.floor(r() * 136) : 1 + Math.floor(r() * 9);
    const key = Uint8Array.from({ length }, () => alphabet[Math.floor(r() * (r() < 0.7 ? 3 : alphabet.length))]!);
    seen.set(Buffer.from(key).toString("hex"), key);
  }
  const keys = [...seen.values()].sort((a, b) => Buffer.compare(a, b));
  return { keys, counts: keys.map(() => (r() < 0.9 ? 1 : 1 + Math.floor(r() * 300))) };
}

function bruteForce(keys: Uint8Array[], counts: number[], query: Uint8Array) {
  const starts = [0];
  for (const c of counts) starts.push(starts[starts.length - 1]! + c);
  const prefixed = keys.map((k) => k.length >= query.length && Buffer.compare(k.subarray(0, query.length), query) === 0);
  const lo = prefixed.indexOf(true);
  if (lo < 0) return null;
  let hi = lo;
  while (hi < keys.length && prefixed[hi]) hi++;
  const exact = keys[lo]!.length === query.length;
  return { lo, hi, loEntry: starts[lo]!, hiEntry: starts[hi]!, exactEnd: exact ? starts[lo + 1]! : starts[lo]! };
}

describe("key blocks", () => {
  test("every prefix of every key, and random queries, find what a scan of the plain keys finds", () => {
    const r = random(48);
    for (const size of [1, 2, KEY_BLOCK - 1, KEY_BLOCK, KEY_BLOCK + 1, 500, 3000]) {
      const { keys, counts } = keySet(r, size);
      const index = new KeyBlockIndex(encodeKeyBlocks(keys, counts));
      const queries: Uint8Array[] = [];
      // Every prefix of a short key; of a long one, its first 12, every 17th and the whole key.
      for (const key of keys) for (let n = 1; n <= key.length; n++) if (n <= 12 || n % 17 === 0 || n === key.length) queries.push(key.subarray(0, n));
      for (let i = 0; i < 300; i++) queries.push(Uint8Array.from({ length: 1 + Math.floor(r() * 5) }, () => [0x61, 0x62, 0x63, 0x00, 0xff][Math.floor(r() * 5)]!));
      for (const query of queries) {
        // The query sits at the start of a larger buffer, as the search's own buffer holds it.
        const buffer = new Uint8Array(300).fill(0x62);
        buffer.set(query);
        const expected = bruteForce(keys, counts, query);
        const found = index.find(buffer, query.length);
        expect(found, `${Buffer.from(query).toString("hex")} in ${size} keys`).toBe(expected !== null);
        if (expected === null) continue;
        expect({ lo: index.lo, hi: index.hi, loEntry: index.loEntry, hiEntry: index.hiEntry, exactEnd: index.exactEnd }).toEqual(expected);
      }
    }
  }, 60_000);

  test("keyAt and checkKeyBlocks give back every key with its entries", () => {
    const { keys, counts } = keySet(random(7), 1000);
    const blocks = encodeKeyBlocks(keys, counts);
    const index = new KeyBlockIndex(blocks);
    let entry = 0;
    let visited = 0;
    checkKeyBlocks(blocks, counts.reduce((a, b) => a + b, 0), (reason) => {
      throw new Error(reason);
    }, (k, key, first, end) => {
      expect(Array.from(key)).toEqual(Array.from(keys[k]!));
      expect(Array.from(index.keyAt(k))).toEqual(Array.from(keys[k]!));
      expect([first, end]).toEqual([entry, entry + counts[k]!]);
      entry = end;
      visited++;
    });
    expect(visited).toBe(keys.length);
  });

  test("the writer refuses unsorted, repeated, empty and overlong keys and keys without entries", () => {
    const k = (text: string) => new TextEncoder().encode(text);
    expect(() => encodeKeyBlocks([k("b"), k("a")], [1, 1])).toThrow(/not after/);
    expect(() => encodeKeyBlocks([k("a"), k("a")], [1, 1])).toThrow(/not after/);
    expect(() => encodeKeyBlocks([k("")], [1])).toThrow(/0 bytes/);
    expect(() => encodeKeyBlocks([k("x".repeat(256))], [1])).toThrow(/256 bytes/);
    expect(() => encodeKeyBlocks([k("a")], [0])).toThrow(/no entries/);
  });
});
