// A release whose Rule set fires twice at one instant: 93g-96f copy Egypt's rules from africa
// into asia and define Russia's in both asia and europe. Today's zic refuses "two rules for
// same instant"; the zic of the time (built from IANA's repository at each of those
// releases, scripts/tzdb/era-zic.ts) added both firings, and a firing of the same type as
// the one before it changes nothing (its addtt). Where the twins are the same rule word for
// word, the zic of the time gives the same bytes with and without the copy (checked by
// test/support/twin-rules.ts), and our reader drops such copies (scripts/tzdb/resolve.ts):
// those releases (95m-96f) are served. Twins that differ in SAVE or
// LETTER, or in AT (93g-95l: asia's Russia rules change at 2:00 and 3:00 wall time, europe's
// at 2:00s, one instant only while DST is in force), stay refused: the zic of the time took
// them, but its output differs from today's zic elsewhere (96f's names Belize's first change LMT),
// and today's refuses them, so no reference here can check our answer.

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

/** Whether two lines fire at the same time of day and set the same clock: a copy. */
const copy = (a: RuleLine, b: RuleLine) =>
  a.at === b.at && a.atType === b.atType && a.save === b.save && a.isdst === b.isdst && a.letters === b.letters;

/** Why the source's rules fire twice at one instant, or null when none does. */
export function repeatedRule(source: TzSource): string | null {
  const byName = new Map<string, RuleLine[]>();
  for (const rule of source.rules) {
    const earlier = byName.get(rule.name) ?? [];
    const twin = earlier.find((r) => sameDay(r, rule) && !copy(r, rule));
    if (twin) {
      return `Rule ${rule.name} fires twice on one day (${twin.pos.file}:${twin.pos.line} and line ${rule.pos.line}), not as a copy: ` +
        "today's zic refuses \"two rules for same instant\", and the zic of the time, which took them, differs from today's elsewhere, so no reference here can check the answer";
    }
    earlier.push(rule);
    byName.set(rule.name, earlier);
  }
  return null;
}
