// `?lang=` to a CLDR locale, as ICU (Intl) reads a tag:
//
// 1. Parsed as a Unicode locale identifier (UTS #35): language (2-3 or 5-8 letters), script,
//    region, variants, extensions, private use; any letter case, and "_" read as "-" (the one
//    liberty we take). What ICU refuses with a RangeError is refused here: a malformed subtag,
//    a variant twice (de-1996-1996), an extension's singleton twice (en-a-bbb-a-ccc), a
//    legacy form that is no Unicode locale id (i-klingon, zh-min-nan).
// 2. Canonicalized by CLDR's language aliases, as ICU does: iw -> he, in -> id, tl -> fil,
//    sh -> sr-Latn, mo -> ro, cmn -> zh, art-lojban -> jbo (a script or region the alias
//    brings is taken only where the tag has none).
// 3. Walked down CLDR's fallback chain to the nearest locale CLDR has: de-AT-1996 -> de-AT ->
//    de. A region that implies another script takes it first (zh-TW -> zh-Hant-TW, as ICU's
//    aliases do). A locale ICU leaves out of its data is passed over, as ICU passes it
//    (az-Arab -> az; icu-locales.ts); one it keeps without zone names of its own (yi, pa-Arab)
//    answers the localized GMT format, as ICU does. A language neither has at all is
//    refused: "root" names are nobody's language, and a 400 says so plainly instead of
//    answering in English.
// 4. The -u-nu- keyword (ar-EG-u-nu-latn) picks the digits of a numeric numbering system, as
//    ICU does; an unknown one is ignored, as ICU ignores it.

import { LOCALES_ICU_LEAVES_OUT, ZONE_NAMES_ICU_READS_FROM } from "./icu-locales.ts";
import { NamesInputError } from "./names-errors.ts";
import type { Locale, NamesTable } from "./names-table.ts";

export const MAX_TAG_LENGTH = 64;

const LANGUAGE = /^(?:[a-z]{2,3}|[a-z]{5,8})$/;
const SCRIPT = /^[a-z]{4}$/;
const REGION = /^(?:[a-z]{2}|\d{3})$/;
const VARIANT = /^(?:[a-z0-9]{5,8}|\d[a-z0-9]{3})$/;
const SINGLETON = /^[0-9a-wyz]$/;
const EXTENSION_SUBTAG = /^[a-z0-9]{2,8}$/;
const PRIVATE_SUBTAG = /^[a-z0-9]{1,8}$/;

interface ParsedTag {
  language: string;
  script?: string;
  region?: string;
  variants: string[];
  /** The -u- extension's keywords: key -> type ("nu" -> "latn"). */
  keywords: Map<string, string>;
}

const malformed = () => new NamesInputError("bad_lang", "lang must be a BCP 47 language tag such as de, pt-BR or zh-Hant");

/** A tag as UTS #35 parses it, or a refusal where ICU throws a RangeError. */
function parse(raw: string): ParsedTag {
  const parts = raw.replaceAll("_", "-").toLowerCase().split("-");
  let i = 0;
  const language = parts[i++]!;
  if (!LANGUAGE.test(language)) throw malformed();
  const tag: ParsedTag = { language, variants: [], keywords: new Map() };
  if (i < parts.length && SCRIPT.test(parts[i]!)) tag.script = parts[i++];
  if (i < parts.length && REGION.test(parts[i]!)) tag.region = parts[i++];
  while (i < parts.length && VARIANT.test(parts[i]!)) {
    if (tag.variants.includes(parts[i]!)) throw malformed();
    tag.variants.push(parts[i++]!);
  }
  const singletons = new Set<string>();
  while (i < parts.length && SINGLETON.test(parts[i]!)) {
    const singleton = parts[i++]!;
    if (singletons.has(singleton)) throw malformed();
    singletons.add(singleton);
    const start = i;
    while (i < parts.length && EXTENSION_SUBTAG.test(parts[i]!)) i++;
    if (i === start) throw malformed();
    if (singleton === "u") readKeywords(parts.slice(start, i), tag.keywords);
  }
  if (i < parts.length && parts[i] === "x") {
    i++;
    const start = i;
    while (i < parts.length && PRIVATE_SUBTAG.test(parts[i]!)) i++;
    if (i === start) throw malformed();
  }
  if (i !== parts.length) throw malformed();
  return tag;
}

/** The -u- extension: attributes (3-8), then keywords (a 2-character key, its type subtags of 3-8). */
function readKeywords(subtags: string[], into: Map<string, string>): void {
  let key: string | null = null;
  let type: string[] = [];
  const flush = () => {
    if (key !== null && !into.has(key)) into.set(key, type.join("-"));
  };
  for (const subtag of subtags) {
    if (subtag.length === 2) {
      if (!/^[a-z0-9][a-z]$/.test(subtag)) throw malformed();
      flush();
      key = subtag;
      type = [];
    } else if (key !== null) {
      type.push(subtag);
    } else if (subtag.length < 3) {
      throw malformed();
    }
  }
  flush();
}

/** CLDR's language aliases applied as ICU applies them: language+variant, language+region, then the language alone. */
function canonical(names: NamesTable, tag: ParsedTag): ParsedTag {
  const aliases = names.languageAliases;
  let replacement: string | undefined;
  for (const variant of tag.variants) {
    replacement = aliases.get(`${tag.language}-${variant}`);
    if (replacement !== undefined) {
      tag = { ...tag, variants: tag.variants.filter((v) => v !== variant) };
      break;
    }
  }
  if (replacement === undefined && tag.region !== undefined && (replacement = aliases.get(`${tag.language}-${tag.region}`)) !== undefined) {
    tag = { ...tag, region: undefined };
  }
  replacement ??= aliases.get(tag.language);
  if (replacement === undefined) return tag;
  const [language, ...rest] = replacement.toLowerCase().split("-");
  const script = rest.find((s) => SCRIPT.test(s));
  const region = rest.find((s) => REGION.test(s));
  return { ...tag, language: language!, script: tag.script ?? script, region: tag.region ?? region };
}

export function resolveLocale(names: NamesTable, raw: string): Locale {
  if (raw.length === 0 || raw.length > MAX_TAG_LENGTH) throw malformed();
  const tag = canonical(names, parse(raw));
  const language = tag.language;
  // "und" (undetermined) is CLDR's root: nobody's language (ICU answers it in its default, English).
  if (language === "und") throw new NamesInputError("unknown_lang", `lang: "und" names no language`);
  const region = tag.region?.toUpperCase();
  let script = tag.script ? tag.script[0]!.toUpperCase() + tag.script.slice(1) : undefined;
  if (script === undefined && region !== undefined) script = names.likelyScripts.get(`${language}-${region}`);
  const candidates = [
    script && region ? `${language}-${script}-${region}` : null,
    script ? `${language}-${script}` : null,
    region ? `${language}-${region}` : null,
    language,
  ];
  for (const c of candidates) {
    if (c === null) continue;
    const found = names.locale(c);
    if (found === undefined || LOCALES_ICU_LEAVES_OUT.has(found.tag)) continue;
    const readFrom = ZONE_NAMES_ICU_READS_FROM.get(found.tag);
    const locale = readFrom === undefined ? found : names.locale(readFrom)!;
    const digits = names.numberingDigits.get(tag.keywords.get("nu") ?? "");
    return digits === undefined ? locale : { ...locale, digits };
  }
  throw new NamesInputError("unknown_lang", `lang: CLDR ${names.cldrVersion} has no names for the language "${language}"`);
}
