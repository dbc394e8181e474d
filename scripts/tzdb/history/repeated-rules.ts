// A release whose Rule set fires twice at one instant: 93g-96f define Russia's rules in both
// asia and europe (with different LETTERs) and copy six to ten of Egypt's from africa into
// asia. The zic of the time merged them; today's zic refuses "two rules for same instant",
// and which twin the old zic applied is not something any reference here can check. The
// import leaves such releases out as gaps. Two lines fire at one instant in every year both
// apply when they have the same name, month, day and time of day.

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

/** Why the source's rules fire twice at one instant, or null when none does. */
export function repeatedRule(source: TzSource): string | null {
  const byName = new Map<string, RuleLine[]>();
  for (const rule of source.rules) {
    const earlier = byName.get(rule.name) ?? [];
    const twin = earlier.find((r) => sameInstant(r, rule));
    if (twin) {
      return `Rule ${rule.name} fires twice at one instant (${twin.pos.file}:${twin.pos.line} and line ${rule.pos.line}): ` +
        "today's zic refuses \"two rules for same instant\", and which one the zic of the time applied cannot be checked";
    }
    earlier.push(rule);
    byName.set(rule.name, earlier);
  }
  return null;
}
