// A Zone line's FORMAT turned into an abbreviation, as zic's doabbr() does it.

import { formatOffset } from "../../server/core/time-format.ts";

/** `%z`: the UT offset as ±hh, ±hhmm or ±hhmmss, the shortest form that loses nothing. */
export const numericAbbreviation = (utoff: number): string => formatOffset(utoff, "", true);

/**
 * FORMAT with `%s` replaced by the rule's LETTERS, `%z` by the numeric offset, or for
 * `STD/DST` the half that isdst selects. Returns null where zic's doabbr() gives up:
 * `%s` with no rule letters known (the caller decides whether that is an error).
 */
export function formatAbbreviation(format: string, letters: string | null, isdst: boolean, utoff: number): string | null {
  const slash = format.indexOf("/");
  if (slash >= 0) return isdst ? format.slice(slash + 1) : format.slice(0, slash);
  if (format.includes("%z")) return format.replace("%z", numericAbbreviation(utoff));
  if (format.includes("%s")) return letters === null ? null : format.replace("%s", letters);
  return format;
}
