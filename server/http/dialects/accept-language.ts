// Accept-Language as RFC 9110 reads it (sections 12.4.2 and 12.5.4): each language range may
// carry a quality `q` from 0 to 1 (at most three decimals); the higher is preferred, equal
// ones in the order sent, and q=0 means "not acceptable": `de;q=0, fr` asks for French and
// refuses German. `*` (any language) names none in particular, so it adds nothing here. An
// entry that is not a language tag, or whose q is malformed, is ignored, as is everything
// past the first MAX_ENTRIES (a header is a few entries; a 16 KB one is not read whole).

import { LANGUAGE_TAG } from "./lookups.ts";

const MAX_ENTRIES = 20;
/** RFC 9110's qvalue: 0, 0.x to 0.xxx, 1, 1.0 to 1.000. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The header's languages, most preferred first; [] for none. */
export function acceptedLanguages(header: string | null): string[] {
  if (header === null) return [];
  const ranked: { tag: string; q: number; at: number }[] = [];
  const entries = header.split(",", MAX_ENTRIES);
  for (let at = 0; at < entries.length; at++) {
    const [range, ...parameters] = entries[at]!.split(";");
    const tag = range!.trim();
    let q = 1;
    let valid = LANGUAGE_TAG.test(tag);
    for (const parameter of parameters) {
      const eq = parameter.indexOf("=");
      if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== "q") continue;
      const value = parameter.slice(eq + 1).trim();
      if (QVALUE.test(value)) q = Number(value);
      else valid = false;
    }
    if (valid && q > 0) ranked.push({ tag, q, at });
  }
  ranked.sort((a, b) => b.q - a.q || a.at - b.at);
  return ranked.map((r) => r.tag);
}

/**
 * What an answer read from Accept-Language depends on: its languages in order, joined; null
 * when that is longer than MAX_KEY (such an answer is not kept: kept-answers.ts).
 */
const MAX_KEY = 64;
export function acceptLanguageKey(header: string | null): string | null {
  if (header === null) return ""; // most clients of a server-side API send none
  const key = acceptedLanguages(header).join(",");
  return key.length <= MAX_KEY ? key : null;
}
