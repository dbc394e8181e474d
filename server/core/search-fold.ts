// How /timezone?q= compares words: accents, case, and the separators people type
// differently ("Mitteleuropäische Zeit", "mitteleuropaische-zeit", "Port_Moresby") fold to
// one key. The build folds every searchable name with this function and the server folds
// the query with it, so the two always agree.

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[\s_\-\u2010-\u2015.,'\u2019()/:]+/gu;
const ASCII_PLAIN = /^[a-z0-9+ ]*$/;

/** The search key of `text`: NFD without combining marks, lower case, separators as one space, trimmed. */
export function searchFold(text: string): string {
  // The common query is already plain lower-case ASCII with single spaces: no work.
  if (ASCII_PLAIN.test(text) && !text.includes("  ") && text[0] !== " " && text[text.length - 1] !== " ") return text;
  return text.normalize("NFD").replace(MARKS, "").toLowerCase().replace(SEPARATORS, " ").trim();
}
