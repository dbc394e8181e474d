// The places table on its own (no HTTP): the query folding equals the build's, the
// precomputed lists equal the scan they stand for, word and prefix matching, and the
// reader's refusals of damaged files.

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildFoldMap, foldText } from "../../scripts/places/fold-map.ts";
import { readPlacesSource } from "../../scripts/places/geonames-source.ts";
import { TableFormatError } from "../../server/core/errors.ts";
import { KEY_BLOCK } from "../../server/formats/key-blocks.ts";
import { decodeCountryPostings, decodePlacesTable, MAX_LIMIT, PLACES_FILE, u24At } from "../../server/formats/places-format.ts";
import { PlaceTable } from "../../server/places/place-table.ts";
import { foldQuery } from "../../server/places/query-fold.ts";
import { testDataDir } from "../support/test-server.ts";

let file: string;
let bytes: Uint8Array;
let table: PlaceTable;
beforeAll(async () => {
  file = join(await testDataDir(), PLACES_FILE);
  bytes = new Uint8Array(readFileSync(file));
  table = PlaceTable.load(file);
}, 300_000);

const decoder = new TextDecoder();
function runtimeFold(text: string): string {
  const out = new Uint8Array(4096);
  const n = foldQuery(text, { codes: table.data.foldCodes, offsets: table.data.foldOffsets, bytes: table.data.foldBytes }, out);
  return decoder.decode(out.subarray(0, n));
}

describe("query folding", () => {
  test("the server folds every BMP character, alone and between letters, as the build folded the keys", () => {
    const map = buildFoldMap();
    const differences: string[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      for (const text of [String.fromCharCode(cp), `a${String.fromCharCode(cp)}b`, ` ${String.fromCharCode(cp)}${String.fromCharCode(cp)} `]) {
        if (runtimeFold(text) !== foldText(text, map)) differences.push(`U+${cp.toString(16)}`);
      }
    }
    expect(differences).toEqual([]);
  }, 60_000);

  test("real names and their other names fold the same on both sides", () => {
    const map = buildFoldMap();
    const source = readPlacesSource();
    let checked = 0;
    for (const place of source.places.slice(0, 3000)) {
      for (const name of [place.name, ...place.alternates]) {
        expect(runtimeFold(name)).toBe(foldText(name, map));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15_000);
  }, 60_000);

  test("examples: case, accents, letters Unicode does not decompose, apostrophes, punctuation, astral characters", () => {
    expect(runtimeFold("São Paulo")).toBe("sao paulo");
    expect(runtimeFold("ZÜRICH")).toBe("zurich");
    expect(runtimeFold("Łódź")).toBe("lodz");
    expect(runtimeFold("Straße")).toBe("strasse");
    expect(runtimeFold("Xi'an")).toBe("xian");
    expect(runtimeFold("  St.-Petersburg!! ")).toBe("st petersburg");
    expect(runtimeFold("İstanbul")).toBe("istanbul");
    expect(runtimeFold("𠀋a")).toBe("𠀋a");
    expect(runtimeFold("a\ud800b")).toBe("a b"); // a lone surrogate is a word break
  });

});

describe("search", () => {
  test("every precomputed list is what the scan of its range answers, all places' and each country's", () => {
    const { heavy, heavyStarts, heavyEntries, heavyGroupStarts } = table.data;
    expect(heavyGroupStarts[1]).toBeGreaterThan(100);
    expect(heavy.length / 2 - heavyGroupStarts[1]!).toBeGreaterThan(100);
    for (let group = 0; group + 1 < heavyGroupStarts.length; group++) {
      for (let h = heavyGroupStarts[group]!; h < heavyGroupStarts[group + 1]!; h++) {
        const scanned = table.rankedPrefix(heavy[2 * h]!, heavy[2 * h + 1]!, MAX_LIMIT, group - 1);
        const entries = Array.from({ length: heavyStarts[h + 1]! - heavyStarts[h]! }, (_, i) => u24At(heavyEntries, heavyStarts[h]! + i));
        expect(entries).toEqual(scanned);
      }
    }
  });

  test("answers from the lists equal the scan's, with and without a country, at every limit", () => {
    const ids = (places: { id: number }[]) => places.map((p) => p.id);
    for (const q of ["s", "sa", "san", "b", "m", "a", "new", "st", "ch"]) {
      for (const country of [undefined, "FR", "US", "NZ", "VA", "AQ", "IN"]) {
        for (const limit of [1, 10, 50]) {
          const answer = table.searchPlaces(q, { country, limit });
          expect(ids(answer)).toEqual(table.scannedIndexes(q, { country, limit }).map((i) => table.data.ids[i]!));
          if (country !== undefined) expect(answer.every((p) => p.country === country)).toBe(true);
        }
      }
    }
  });

  test("whole words or a prefix of the last one: a word's middle is no match", () => {
    const ids = (q: string, limit = 50) => table.searchPlaces(q, { limit }).map((p) => p.name);
    expect(ids("new york")).toContain("New York City");
    expect(ids("york city")).toContain("New York City");
    expect(ids("ork", 50)).not.toContain("New York City");
    expect(ids("ew york", 50)).not.toContain("New York City");
    expect(ids("new yo")[0]).toBe("New York City");
    // A later word matches after the names that are that word.
    const york = ids("york", 50);
    expect(york[0]).toBe("York");
    expect(york.indexOf("New York City")).toBeGreaterThan(0);
  });

  test("other names: a far larger place's other name ranks as a name, a namesake's does not", () => {
    expect(table.searchPlaces("bombay", { limit: 1 })[0]).toMatchObject({ name: "Mumbai", country: "IN" });
    expect(table.searchPlaces("münchen", { limit: 1 })[0]).toMatchObject({ name: "Munich", country: "DE" });
    // "Philadelphia" is also an old name of Amman, a capital: the US city keeps its name.
    expect(table.searchPlaces("philadelphia", { limit: 1 })[0]).toMatchObject({ name: "Philadelphia", country: "US" });
  });

  test("exact names before prefixes, each by weight; each place once", () => {
    expect(table.searchPlaces("lima", { limit: 1 })[0]).toMatchObject({ name: "Lima", country: "PE" });
    const paris = table.searchPlaces("paris", { limit: 50 });
    const firstPrefix = paris.findIndex((p) => p.name.toLowerCase() !== "paris" && !p.name.toLowerCase().startsWith("paris "));
    expect(firstPrefix).toBeGreaterThan(5);
    expect(new Set(paris.map((p) => p.id)).size).toBe(paris.length);
    // The capital outweighs every other Paris.
    expect(paris[0]).toMatchObject({ country: "FR", admin1: "Île-de-France" });
  });

  test("unknown country, nothing foldable, no match: empty", () => {
    expect(table.searchPlaces("paris", { country: "ZZ" })).toEqual([]);
    expect(table.searchPlaces("!!!")).toEqual([]);
    expect(table.searchPlaces("qqqqxzzz")).toEqual([]);
  });

});

describe("the reader refuses a damaged places.bin, naming it", () => {
  const refusal = (image: Uint8Array) => {
    try {
      decodePlacesTable(image.slice().buffer as ArrayBuffer, "/srv/generated/places.bin");
    } catch (error) {
      expect(error).toBeInstanceOf(TableFormatError);
      return (error as Error).message;
    }
    return "accepted";
  };

  test("truncated, bad magic, unknown major, length mismatch", () => {
    expect(refusal(bytes.subarray(0, 20))).toBe("/srv/generated/places.bin: truncated: 20 bytes is shorter than the 64-byte header");
    const magic = bytes.slice();
    magic[0] = 0x58;
    expect(refusal(magic)).toContain("not a zonetime places table");
    const major = bytes.slice();
    major[8] = 9;
    expect(refusal(major)).toContain("format major version 9 is not supported");
    // A 2.x file (u32 key offsets, before the front-coded keys) is refused, not misread.
    const older = bytes.slice();
    older[8] = 2;
    expect(refusal(older)).toContain("format major version 2 is not supported (this build reads 3); rebuild with `bun run build`");
    expect(refusal(bytes.subarray(0, bytes.length - 1))).toContain("length mismatch");
  });

  test("a posting, a heavy entry, a zone index, a country posting or a heavy group out of range", () => {
    const d = decodePlacesTable(bytes.slice().buffer as ArrayBuffer, file);
    const at = (view: ArrayBufferView) => view.byteOffset;
    const corrupt = (offset: number, value: number, size: 1 | 2 | 3 | 4) => {
      const image = bytes.slice();
      const view = new DataView(image.buffer);
      if (size === 4) view.setUint32(offset, value, true);
      else if (size === 3) view.setUint16(offset, value & 0xffff, true), view.setUint8(offset + 2, value >>> 16);
      else if (size === 2) view.setUint16(offset, value, true);
      else view.setUint8(offset, value);
      return refusal(image);
    };
    expect(corrupt(at(d.postings) + 3 * 7, 0xfffffe, 3)).toContain("posting 7 names a place out of range");
    expect(corrupt(at(d.heavyEntries), 0xffffff, 3)).toContain("heavy entry 0 names a place out of range");
    expect(corrupt(at(d.zone) + 2 * 3, 0xfffe, 2)).toContain("place 3 names a zone, country or region out of range");
    expect(corrupt(at(d.country) + 3, 0xff, 1)).toContain("place 3 names a zone, country or region out of range");
    // Country postings are LEB128 numbers: the first (whole) one made far too large.
    expect(corrupt(at(d.countryPostings), 0x7fffff, 3)).toContain("country posting 0 is out of range or order");
    // Another country's posting in the first country's run (both runs non-empty).
    const c = d.countryPostingStarts.findIndex((start, i) => i > 0 && start > 0 && d.countryPostingStarts[i + 1]! > start);
    const other = decodeCountryPostings(d)[d.countryPostingStarts[c]!]!;
    expect(other).toBeLessThan(1 << 21);
    // `other` in three LEB128 bytes (padded: a valid encoding), over the first posting.
    const leb = (v: number) => (v & 127 | 128) | ((v >>> 7 & 127 | 128) << 8) | ((v >>> 14) << 16);
    expect(corrupt(at(d.countryPostings), leb(other), 3)).toMatch(/country posting 0 is (another country's|out of range or order)/);
    // A sample that points off its posting.
    expect(corrupt(at(d.countrySamples) + 4 * 3, d.countrySamples[3]! + 1, 4)).toMatch(/country posting sample 3 is not at its posting|country posting \d+ is/);
    expect(corrupt(at(d.heavyGroupStarts) + 4, 0xffffff, 4)).toContain("heavy group starts are not ascending");
  });

  test("damaged search keys: a block's bounds, a key out of order, a block's first key not whole, a count that runs on", () => {
    const d = decodePlacesTable(bytes.slice().buffer as ArrayBuffer, file);
    const { blockStarts, bytes: keyBytes } = d.keys;
    const image = (edit: (view: DataView, keysAt: number) => void) => {
      const copy = bytes.slice();
      edit(new DataView(copy.buffer), keyBytes.byteOffset);
      return refusal(copy);
    };
    expect(image((v) => v.setUint32(blockStarts.byteOffset + 4 * 5, blockStarts[5]! + 1, true))).toMatch(/key (block 4 does not end where the next one starts|80 is malformed|80's entry count is malformed)/);
    // A record (key-blocks.ts): shared length, its form, the rest's bytes (from), then a count unless the form says one.
    const record = (at: number) => {
      const form = keyBytes[at + 1]!;
      const from = form === 0 ? at + 3 : at + 2;
      let end = from + (form >= 128 ? form - 128 : form === 0 ? keyBytes[at + 2]! : form);
      if (form < 128) while (keyBytes[end++]! >= 128);
      return { from, end };
    };
    // Block 3's second key: its first own byte lowered below its predecessor's.
    const second = record(record(blockStarts[3]!).end);
    expect(keyBytes[second.from]).toBeGreaterThan(1);
    expect(image((v, at) => v.setUint8(at + second.from, 0x01))).toContain(`key ${3 * KEY_BLOCK + 1} is not after key ${3 * KEY_BLOCK}`);
    expect(image((v, at) => v.setUint8(at + blockStarts[7]!, 1))).toContain(`key ${7 * KEY_BLOCK} is malformed`);
    // Block 5's first key said to be 127 bytes longer than it is: it runs over the keys after it.
    expect(image((v, at) => v.setUint8(at + blockStarts[5]! + 1, 255))).toMatch(/key \d+ (is malformed|is not after key \d+|'s entry count is malformed)|key block 5 does not end/);
  });
});
