// `?lang=` to a CLDR locale: a BCP 47 tag is parsed (anything else is refused), then walked
// down CLDR's fallback chain to the nearest locale CLDR has: de-AT-1996 -> de-AT -> de.
// A region that implies another script takes it first (zh-TW -> zh-Hant-TW, as ICU's
// aliases do). A language CLDR does not have at all is refused too: "root" names are
// nobody's language, and a 400 says so plainly instead of answering in English.

import { NamesInputError } from "./names-errors.ts";
import type { Locale, NamesTable } from "./names-table.ts";

// language[-script][-region](-variant)*(-extension)*(-x-private)? ; "_" is read as "-".
const TAG = /^([a-z]{2,3}|[a-z]{5,8})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?((?:-(?:[a-z0-9]{5,8}|\d[a-z0-9]{3}))*)((?:-[a-wyz0-9](?:-[a-z0-9]{2,8})+)*)(?:-x(?:-[a-z0-9]{1,8})+)?$/;
export const MAX_TAG_LENGTH = 64;

export function resolveLocale(names: NamesTable, raw: string): Locale {
  if (raw.length === 0 || raw.length > MAX_TAG_LENGTH) throw new NamesInputError("bad_lang", "lang must be a BCP 47 language tag such as de, pt-BR or zh-Hant");
  const m = TAG.exec(raw.replaceAll("_", "-").toLowerCase());
  if (m === null) throw new NamesInputError("bad_lang", "lang must be a BCP 47 language tag such as de, pt-BR or zh-Hant");
  const language = m[1]!;
  const region = m[3]?.toUpperCase();
  let script = m[2] ? m[2][0]!.toUpperCase() + m[2].slice(1) : undefined;
  if (script === undefined && region !== undefined) script = names.likelyScripts.get(`${language}-${region}`);
  const candidates = [
    script && region ? `${language}-${script}-${region}` : null,
    script ? `${language}-${script}` : null,
    region ? `${language}-${region}` : null,
    language,
  ];
  for (const c of candidates) {
    if (c === null) continue;
    const locale = names.locale(c);
    if (locale !== undefined) return locale;
  }
  throw new NamesInputError("unknown_lang", `lang: CLDR ${names.cldrVersion} has no names for the language "${language}"`);
}
