// A release whose Rule set fires twice at one instant: 93g-96f copy Egypt's rules from africa
// into asia and define Russia's in both asia and europe; 93g-95h also have Winnipeg's
// `Winn 1947 1949 Apr lastSun` and `Winn 1948 1960 Apr lastSun`, both firing in 1948 and 1949.
// Today's zic refuses "two rules for same instant"; the zic of the time (built from IANA's
// repository at each of those releases, scripts/tzdb/era-zic.ts) added both firings.
// Twins that set the same SAVE and LETTER on the same day are taken, whatever their AT:
// - a word-for-word copy (95m-96f): the zic of the time gives the same bytes without it;
// - another AT (93g-95l: asia's Russia rules change at 2:00 and 3:00 wall time, europe's at
//   2:00s): measured on all 17 releases' own zic output, every twin fires at the instant of
//   the first (2:00 wall before DST and 3:00 wall in DST are both 2:00s), and the two types
//   it writes there differ only in their standard/wall flag; zdump -v over 1901-2037 reads
//   every file the same with either twin removed.
// Our reader keeps the first twin (scripts/tzdb/resolve.ts); the reference is today's zic
// on the source without the later twins, and the Russia zones are also held against the zic
// of their time (test/support/twin-rules.ts, release-reference.ts). Twins that set another
// SAVE or LETTER (no release has them) stay refused: which one stands would be a guess.

import type { RuleLine, TzSource } from "../parse.ts";
import { yearIsType } from "../year-types.ts";

/** Whether some year is in both rules' ranges and of both their types. */
function shareAYear(a: RuleLine, b: RuleLine): boolean {
  const from = Math.max(a.from, b.from);
  const to = Math.min(a.to, b.to);
  // Two consecutive years cover both parities: enough to find one of both types.
  for (let year = from; year <= Math.min(to, from + 1); year++) if (yearIsType(year, a.yearType) && yearIsType(year, b.yearType)) return true;
  return false;
}

/** Two lines of one name that fire on the same day of a year both apply in. */
const sameDay = (a: RuleLine, b: RuleLine) =>
  a.name === b.name && a.month === b.month &&
  a.daySpec.kind === b.daySpec.kind && a.daySpec.day === b.daySpec.day && a.daySpec.weekday === b.daySpec.weekday && shareAYear(a, b);

/** Whether two lines set the same clock (their AT may differ): the second changes nothing. */
const sameClock = (a: RuleLine, b: RuleLine) => a.save === b.save && a.isdst === b.isdst && a.letters === b.letters;

/** Why the source's rules fire twice at one instant, or null when none does. */
export function repeatedRule(source: TzSource): string | null {
  const byName = new Map<string, RuleLine[]>();
  for (const rule of source.rules) {
    const earlier = byName.get(rule.name) ?? [];
    const twin = earlier.find((r) => sameDay(r, rule) && !sameClock(r, rule));
    if (twin) {
      return `Rule ${rule.name} fires twice on one day (${twin.pos.file}:${twin.pos.line} and line ${rule.pos.line}) setting another SAVE or LETTER: ` +
        "today's zic refuses \"two rules for same instant\", and which of the two stands would be a guess";
    }
    earlier.push(rule);
    byName.set(rule.name, earlier);
  }
  return null;
}
