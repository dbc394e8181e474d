// A release whose Rule set fires twice at one instant: 93g-96f copy Egypt's rules from africa
// into asia and define Russia's in both asia and europe. Today's zic refuses "two rules for
// same instant"; the zic of the time (built from IANA's repository at each of those
// releases, scripts/tzdb/era-zic.ts) added both firings, and a firing of the same type as
// the one before it changes nothing (zic's addtt). In every one of those releases the twins
// are the same rule (same SAVE and LETTER), so the answer is the same whichever is applied,
// and our compiler drops the second as a change of nothing. Twins that differ in SAVE or
// LETTER would make the answer depend on which one a zic applied: those stay refused. Two
// lines fire at one instant in every year both apply when they have the same name, month,
// day and time of day.

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

const sameInstant = (a: RuleLine, b: RuleLine) =>
  a.name === b.name && a.month === b.month && a.at === b.at && a.atType === b.atType &&
  a.daySpec.kind === b.daySpec.kind && a.daySpec.day === b.daySpec.day && a.daySpec.weekday === b.daySpec.weekday && shareAYear(a, b);

/** Whether two firings set the same clock: same SAVE, DST flag and LETTER. */
const sameEffect = (a: RuleLine, b: RuleLine) => a.save === b.save && a.isdst === b.isdst && a.letters === b.letters;

/** Why the source's rules fire twice at one instant, or null when none does. */
export function repeatedRule(source: TzSource): string | null {
  const byName = new Map<string, RuleLine[]>();
  for (const rule of source.rules) {
    const earlier = byName.get(rule.name) ?? [];
    const twin = earlier.find((r) => sameInstant(r, rule) && !sameEffect(r, rule));
    if (twin) {
      return `Rule ${rule.name} fires twice at one instant (${twin.pos.file}:${twin.pos.line} and line ${rule.pos.line}): ` +
        "with another SAVE or LETTER, so the answer depends on which one a zic applied (today's refuses \"two rules for same instant\")";
    }
    earlier.push(rule);
    byName.set(rule.name, earlier);
  }
  return null;
}
