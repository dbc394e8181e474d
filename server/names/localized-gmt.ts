// The localized GMT format (TR35 "GMT{0}" with hourFormat "+HH:mm;-HH:mm"), as ICU's
// TimeZoneFormat writes it for the long styles: always hours and minutes (seconds only
// when there are some), even for a zero offset ("GMT+00:00", not gmtZeroFormat: what
// ICU 78 answers for Intl's long and longGeneric), in the locale's default digits
// (ar-EG, fa, mr, bn write their own; ar and hi write ASCII), or those of the tag's -u-nu-.

import { FormatSlot } from "../formats/names-format.ts";
import type { Locale, NamesTable } from "./names-table.ts";

export function localizedGmt(names: NamesTable, locale: Locale, offsetSeconds: number): string {
  const gmt = names.string(names.slot(locale, FormatSlot.GmtFormat)) || "GMT{0}";
  const hourFormat = names.string(names.slot(locale, FormatSlot.HourFormat)) || "+HH:mm;-HH:mm";
  const digits = [...(locale.digits ?? (names.string(names.slot(locale, FormatSlot.Digits)) || "0123456789"))];
  const semicolon = hourFormat.indexOf(";");
  let pattern = offsetSeconds < 0 ? hourFormat.slice(semicolon + 1) : hourFormat.slice(0, semicolon);
  const abs = Math.abs(offsetSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  // ICU derives the HMS pattern by appending the minutes' separator and "ss" after "mm".
  if (s !== 0) {
    const mm = pattern.indexOf("mm");
    const sep = pattern.lastIndexOf("H", mm) >= 0 ? pattern.slice(pattern.lastIndexOf("H", mm) + 1, mm) : ":";
    pattern = pattern.slice(0, mm + 2) + sep + "ss" + pattern.slice(mm + 2);
  }
  const two = (n: number) => digits[Math.floor(n / 10)]! + digits[n % 10]!;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const doubled = pattern[i + 1] === c;
    if (c === "H") out += doubled ? two(h) : h >= 10 ? two(h) : digits[h]!;
    else if (c === "m") out += two(m);
    else if (c === "s") out += two(s);
    else {
      out += c;
      continue;
    }
    if (doubled) i++;
  }
  return gmt.replace("{0}", out);
}
