// Country-restricted search reads only the country's run of postings and its own
// precomputed lists (places-format.ts, 2.x). Ranking must not move: every answer, with a
// country or without, equals a brute-force scan of every key of the table, written here
// from the ranking rule alone (exact key over prefix, a name's start over a later word,
// then the place's rank), with the query folded by the build's fold, not the server's.

import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { buildFoldMap, foldText } from "../../scripts/places/fold-map.ts";
import { checkKeyBlocks } from "../../server/formats/key-blocks.ts";
import { decodeCountryPostings, MAX_LIMIT, PLACES_FILE, POSTING_FULL, u24At } from "../../server/formats/places-format.ts";
import { PlaceTable } from "../../server/places/place-table.ts";
import { testDataDir } from "../support/test-server.ts";

let table: PlaceTable;
let keys: string[];
/** Each key's first posting, then the end. */
let postingStarts: Uint32Array;
/** Each key's first UTF-16 unit: a cheap first test in the brute force's loop over every key. */
let firstUnits: Uint16Array;
let fold: Map<number, string>;
beforeAll(async () => {
  table = PlaceTable.load(join(await testDataDir(), PLACES_FILE));
  const decoder = new TextDecoder();
  keys = [];
  postingStarts = new Uint32Array(table.keys.keyCount + 1);
  checkKeyBlocks(table.data.keys, table.data.postings.length / 3, (reason) => {
    throw new Error(reason);
  }, (k, key, first, end) => {
    keys.push(decoder.decode(key));
    postingStarts[k] = first;
    postingStarts[k + 1] = end;
  });
  firstUnits = Uint16Array.from(keys, (key) => key.charCodeAt(0));
  fold = buildFoldMap();
}, 300_000);

/** Place indexes for `query`, best first: every key of the table looked at. */
function bruteForce(query: string, country: string | undefined, limit: number): number[] {
  const q = foldText(query, fold);
  if (q === "") return [];
  const { postings, countryCodes } = table.data;
  const wanted = country === undefined ? -1 : countryCodes.indexOf(country);
  if (wanted < 0 && country !== undefined) return [];
  const best = new Map<number, number>();
  const first = q.charCodeAt(0);
  for (let k = 0; k < keys.length; k++) {
    if (firstUnits[k] !== first || !keys[k]!.startsWith(q)) continue;
    for (let p = postingStarts[k]!; p < postingStarts[k + 1]!; p++) {
      const posting = u24At(postings, p);
      const index = posting >>> 1;
      if (wanted >= 0 && table.data.country[index] !== wanted) continue;
      const tier = (keys[k] === q ? 2 : 0) + (posting & POSTING_FULL);
      if (tier > (best.get(index) ?? -1)) best.set(index, tier);
    }
  }
  return [...best].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit).map(([index]) => index);
}

/** A deterministic generator, so a failure names a query that fails again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const ACCENTED: Record<string, string> = { a: "á", e: "é", i: "í", o: "ö", u: "ü", c: "ç", n: "ñ", s: "š", z: "ž" };

/** The text as people type it: as written, lower or upper case, accents dropped or added. */
function typed(text: string, r: () => number): string {
  const pick = r();
  if (pick < 0.25) return text;
  if (pick < 0.45) return text.toLowerCase();
  if (pick < 0.6) return text.toUpperCase();
  if (pick < 0.8) return text.normalize("NFD").replace(/\p{M}/gu, "");
  return [...text].map((ch) => (r() < 0.5 ? ACCENTED[ch] ?? ch : ch)).join("");
}

/** A prefix of whole characters, 1 to all of them. */
function prefixOf(text: string, r: () => number): string {
  const chars = [...text];
  return chars.slice(0, 1 + Math.floor(r() * chars.length)).join("");
}

describe("country-restricted search equals a brute-force scan of the whole table", () => {
  const LIMITS = [1, 3, 10, 50];

  test("every country: prefixes of its places' names (random lengths, case, accents), one- and two-letter prefixes", () => {
    const r = random(19);
    const { countryCodes, country } = table.data;
    // Each country's places in rank order.
    const byCountry = countryCodes.map(() => [] as number[]);
    for (let i = 0; i < table.size; i++) byCountry[country[i]!]!.push(i);
    let queries = 0;
    let nonEmpty = 0;
    let accented = 0;
    for (const [c, code] of countryCodes.entries()) {
      const own = byCountry[c]!;
      const picks = own.length === 0 ? [] : [own[0]!, ...Array.from({ length: 5 }, () => own[Math.floor(r() * own.length)]!)];
      const texts = picks.flatMap((i) => [prefixOf(table.place(i).name, r), table.place(i).name]);
      // Short prefixes hit the country's precomputed lists where it has many places.
      texts.push(String.fromCharCode(97 + Math.floor(r() * 26)), "s", "sa", "san", "new y", "la", "b");
      for (const text of texts) {
        const q = typed(text, r);
        const limit = LIMITS[Math.floor(r() * LIMITS.length)]!;
        const expected = bruteForce(q, code, limit);
        const answer = table.searchPlaces(q, { country: code, limit });
        expect(answer.map((p) => p.id), `${JSON.stringify(q)} in ${code}, limit ${limit}`).toEqual(expected.map((i) => table.data.ids[i]!));
        queries++;
        if (expected.length > 0) nonEmpty++;
        if (/[^\x00-\x7f]/.test(q)) accented++;
      }
    }
    expect(queries).toBeGreaterThan(3000);
    expect(nonEmpty).toBeGreaterThan(1500);
    expect(accented).toBeGreaterThan(300);
  }, 300_000);

  test("random places' prefixes, in their own country, another country and none", () => {
    const r = random(2026);
    const { countryCodes } = table.data;
    let nonEmpty = 0;
    for (let n = 0; n < 1500; n++) {
      // Weighted toward the best-ranked places, which people type.
      const index = Math.floor(table.size * r() ** 3);
      const place = table.place(index);
      const q = typed(prefixOf(place.name, r), r);
      const country = n % 3 === 0 ? undefined : n % 3 === 1 ? place.country : countryCodes[Math.floor(r() * countryCodes.length)]!;
      const limit = LIMITS[Math.floor(r() * LIMITS.length)]!;
      const expected = bruteForce(q, country, limit);
      expect(table.searchPlaces(q, { country, limit }).map((p) => p.id), `${JSON.stringify(q)} in ${country}, limit ${limit}`)
        .toEqual(expected.map((i) => table.data.ids[i]!));
      if (expected.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(1000);
  }, 300_000);

  test("each country's precomputed lists are its best places for the prefix, as the brute force ranks them", () => {
    const { heavy, heavyStarts, heavyEntries, heavyGroupStarts, countryCodes } = table.data;
    const entries = (h: number) => Array.from({ length: heavyStarts[h + 1]! - heavyStarts[h]! }, (_, i) => u24At(heavyEntries, heavyStarts[h]! + i));
    const decoder = new TextDecoder();
    let lists = 0;
    for (let c = 0; c < countryCodes.length; c++) {
      for (let h = heavyGroupStarts[1 + c]!; h < heavyGroupStarts[2 + c]!; h++) {
        const prefix = decoder.decode(table.keys.keyAt(heavy[2 * h]!).subarray(0, heavy[2 * h + 1]!));
        expect(entries(h), `${JSON.stringify(prefix)} in ${countryCodes[c]}`)
          .toEqual(bruteForce(prefix, countryCodes[c], MAX_LIMIT));
        lists++;
      }
    }
    expect(lists).toBeGreaterThan(1000);
  }, 300_000);

  test("every posting is in exactly one country's run: its place's country", () => {
    const { countryPostingStarts, postings, country, countryCodes } = table.data;
    const countryPostings = decodeCountryPostings(table.data);
    const seen = new Uint8Array(postings.length / 3);
    for (let c = 0; c < countryCodes.length; c++) {
      for (let e = countryPostingStarts[c]!; e < countryPostingStarts[c + 1]!; e++) {
        const posting = countryPostings[e]!;
        expect(country[u24At(postings, posting) >>> 1]).toBe(c);
        seen[posting]!++;
      }
    }
    expect(seen.every((n) => n === 1)).toBe(true);
  });
});
