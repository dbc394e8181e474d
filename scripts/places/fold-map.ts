// The folding that makes place search case- and accent-insensitive, defined once per code
// point at build time and stored in places.bin, so the server folds a query with exactly
// the map the keys were folded with (server/places/query-fold.ts) and never asks
// String.normalize, whose tables follow the runtime's ICU version.
//
// A BMP character folds to: its compatibility decomposition without marks, lowercased
// ("É" -> "e", "ﬁ" -> "fi"), with the few letters Unicode does not decompose spelled out
// as people type them ("ß" -> "ss", "ø" -> "o", "ł" -> "l"); apostrophes vanish ("Xi'an"
// and "Xian" meet); any other non-letter, non-digit is a word break (" "). Characters
// outside the BMP stay as they are. Only characters that change are listed.

const SPELLED: Record<string, string> = {
  "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l",
  "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h", "Ħ": "h", "ŀ": "l", "Ŀ": "l",
  "ĸ": "k", "ŧ": "t", "Ŧ": "t", "ŋ": "n", "Ŋ": "n", "ƒ": "f", "ɐ": "a", "ǝ": "e", "ə": "e", "Ə": "e",
};
/** Apostrophes and modifier letters used as apostrophes: dropped, not word breaks. */
const DROPPED = new Set(["'", "\u2019", "\u2018", "\u02bc", "\u02bb", "\u02be", "\u02bf", "`", "\u00b4"]);
const MARK = /\p{M}/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function foldOne(ch: string): string {
  if (DROPPED.has(ch)) return "";
  const spelled = SPELLED[ch];
  if (spelled !== undefined) return spelled;
  const stripped = ch.normalize("NFKD").replace(MARK, "").toLowerCase().normalize("NFKD").replace(MARK, "");
  let out = "";
  for (const c of stripped) {
    const inner = SPELLED[c];
    out += inner !== undefined ? inner : DROPPED.has(c) ? "" : WORD_CHAR.test(c) ? c : " ";
  }
  return out;
}

/** Every BMP code point (surrogates aside) whose fold differs from itself, in code point order. */
export function buildFoldMap(): Map<number, string> {
  const map = new Map<number, string>();
  for (let cp = 0; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCharCode(cp);
    const folded = WORD_CHAR.test(ch) || DROPPED.has(ch) || SPELLED[ch] !== undefined || MARK.test(ch) ? foldOne(ch) : " ";
    MARK.lastIndex = 0;
    if (folded !== ch) map.set(cp, folded);
  }
  return map;
}

/** `text` folded with `map`, word breaks collapsed to one space, none at either end. */
export function foldText(text: string, map: ReadonlyMap<number, string>): string {
  let out = "";
  let pendingSpace = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const folded = cp > 0xffff ? ch : map.get(cp) ?? ch;
    for (const c of folded) {
      if (c === " ") {
        pendingSpace = out.length > 0;
        continue;
      }
      if (pendingSpace) out += " ";
      pendingSpace = false;
      out += c;
    }
  }
  return out;
}
