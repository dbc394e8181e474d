// The country postings of places.bin (places-format.ts): every posting's index grouped by
// its place's country, ascending within a country, as LEB128 numbers: the difference from
// the one before, but whole at a country's first and at every COUNTRY_SAMPLE-th, whose
// byte is stored. A search binary-searches a country's samples, then reads on
// (server/places/place-table.ts); 1.2 bytes a posting where u24 took 3.

/** Every COUNTRY_SAMPLE-th country posting is whole and its byte stored. */
export const COUNTRY_SAMPLE = 32;

/** The parts of the places table these live in. */
export interface CountryPostings {
  /** u32[countryCount+1]: each country's first entry, then the end. */
  countryPostingStarts: Uint32Array;
  countryPostings: Uint8Array;
  /** u32[countryCount+1]: the byte where each country's run starts, then the end. */
  countryPostingBytes: Uint32Array;
  /** u32[ceil(entries/COUNTRY_SAMPLE)]: the byte of every COUNTRY_SAMPLE-th entry. */
  countrySamples: Uint32Array;
}

/** The country postings as stored: LEB128, differences within a country but whole at its first and every COUNTRY_SAMPLE-th. */
export function encodeCountryPostings(starts: Uint32Array, postings: Uint32Array): { bytes: Uint8Array; starts: Uint32Array; samples: Uint32Array } {
  const out: number[] = [];
  const byteStarts = new Uint32Array(starts.length);
  const samples = new Uint32Array(Math.ceil(postings.length / COUNTRY_SAMPLE));
  for (let c = 0; c + 1 < starts.length; c++) {
    byteStarts[c] = out.length;
    for (let e = starts[c]!; e < starts[c + 1]!; e++) {
      if (e % COUNTRY_SAMPLE === 0) samples[e / COUNTRY_SAMPLE] = out.length;
      const whole = e === starts[c] || e % COUNTRY_SAMPLE === 0;
      let v = whole ? postings[e]! : postings[e]! - postings[e - 1]!;
      if (!whole && v <= 0) throw new Error(`places table: country posting ${e} is not above the one before`);
      while (v >= 128) {
        out.push(0x80 | (v & 127));
        v = Math.floor(v / 128);
      }
      out.push(v);
    }
  }
  byteStarts[starts.length - 1] = out.length;
  return { bytes: Uint8Array.from(out), starts: byteStarts, samples };
}

/**
 * Decodes every entry, checking what a search relies on: runs that start where the previous
 * one ends, samples at their entries, postings below `postingCount`, ascending within a
 * country, and each one of a place in that country (`countryOf(posting)`).
 */
export function checkCountryPostings(d: CountryPostings, postingCount: number, countryOf: (posting: number) => number, fail: (reason: string) => never): void {
  const bytes = d.countryPostings;
  if (d.countryPostingBytes[0] !== 0 || d.countryPostingBytes[d.countryPostingBytes.length - 1] !== bytes.length) fail("country posting bytes do not span their section");
  let at = 0;
  for (let c = 0; c + 1 < d.countryPostingStarts.length; c++) {
    if (d.countryPostingBytes[c] !== at) fail(`country ${c}'s postings do not start where the previous country's end`);
    let previous = -1;
    for (let e = d.countryPostingStarts[c]!; e < d.countryPostingStarts[c + 1]!; e++) {
      if (e % COUNTRY_SAMPLE === 0 && d.countrySamples[e / COUNTRY_SAMPLE] !== at) fail(`country posting sample ${e / COUNTRY_SAMPLE} is not at its posting`);
      let value = 0;
      for (let shift = 1; ; shift *= 128) {
        if (at >= bytes.length || shift > 2 ** 21) fail(`country posting ${e} is malformed`);
        const byte = bytes[at++]!;
        value += (byte & 127) * shift;
        if (byte < 128) break;
      }
      const posting = previous >= 0 && e % COUNTRY_SAMPLE !== 0 ? previous + value : value;
      if (posting >= postingCount || posting <= previous) fail(`country posting ${e} is out of range or order`);
      previous = posting;
      if (countryOf(posting) !== c) fail(`country posting ${e} is another country's`);
    }
  }
  if (at !== bytes.length) fail("country postings run past their runs");
}

/** Every country posting, whole, in stored order (for tests and tools; the search reads them in place). */
export function decodeCountryPostings(d: CountryPostings): Uint32Array {
  const out = new Uint32Array(d.countryPostingStarts[d.countryPostingStarts.length - 1]!);
  const bytes = d.countryPostings;
  let at = 0;
  for (let c = 0; c + 1 < d.countryPostingStarts.length; c++) {
    for (let e = d.countryPostingStarts[c]!; e < d.countryPostingStarts[c + 1]!; e++) {
      let value = 0;
      for (let shift = 1; ; shift *= 128) {
        const byte = bytes[at++]!;
        value += (byte & 127) * shift;
        if (byte < 128) break;
      }
      out[e] = e === d.countryPostingStarts[c] || e % COUNTRY_SAMPLE === 0 ? value : out[e - 1]! + value;
    }
  }
  return out;
}
