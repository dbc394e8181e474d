// Stage 2: parsed records -> a zone table. Rule names are looked up, links are followed
// to the Zone they finally name (a link to a link is flattened), and every name is
// checked to be defined once.

import type { LinkDef, RuleLine, TzSource, ZoneDef, ZoneLine } from "./parse.ts";
import { TzResolveError } from "./errors.ts";

/** A Zone line with its named rules attached (empty for `-` or a fixed SAVE). */
export interface ResolvedLine extends ZoneLine {
  ruleLines: RuleLine[];
}

export interface ResolvedZone {
  name: string;
  lines: ResolvedLine[];
}

export interface ZoneTableSource {
  zones: ResolvedZone[];
  /** Every Zone and Link name -> the name of the Zone whose rules it answers with. */
  targets: Map<string, string>;
  /** The names that are Links (the rest are Zones). */
  linkNames: Set<string>;
  version: string | null;
}

/**
 * Whether two Rule lines fire on the same days and set the same clock, whatever their AT:
 * twins. Where their years meet, the later line fires a second time at the first's instant,
 * which today's zic refuses ("two rules for same instant"); the zic of their releases added
 * both firings, and the second changed nothing there:
 * - a word-for-word copy (95m-96f copy Egypt's rules from africa into asia, Russia's are the
 *   same in asia and europe), or the same rule over years that overlap (93g-95h's `Winn 1947
 *   1949` and `Winn 1948 1960 Apr lastSun 2:00`): its addtt drops a type equal to the last
 *   one, even when the copy, timed with the DST the first just started, falls an hour
 *   earlier; its output is the same bytes without the copies;
 * - another AT (93g-95l: Russia's rules change at 2:00 and 3:00 wall time in asia, at 2:00s
 *   in europe): measured on those 17 releases' own zic, every twin fires at the instant of
 *   the first and writes a type that differs from the first's only in its standard/wall
 *   flag, which no reader of offsets sees (zdump -v reads every file the same without them).
 * So a later twin counts only in the years no earlier twin fires in (test/support/
 * twin-rules.ts holds the releases against the zic of their time).
 */
const twins = (a: RuleLine, b: RuleLine) =>
  a.yearType === b.yearType && a.month === b.month &&
  a.daySpec.kind === b.daySpec.kind && a.daySpec.day === b.daySpec.day && a.daySpec.weekday === b.daySpec.weekday &&
  a.save === b.save && a.isdst === b.isdst && a.letters === b.letters;

/** `rule` from the first year no earlier twin fires in; null when none is left. */
function beyondTwins(rule: RuleLine, earlier: readonly RuleLine[]): RuleLine | null {
  let from = rule.from;
  for (let moved = true; moved;) {
    moved = false;
    for (const e of earlier) {
      if (!twins(e, rule) || from < e.from || from > e.to) continue;
      if (e.to >= rule.to) return null;
      from = e.to + 1;
      moved = true;
    }
  }
  return from === rule.from ? rule : { ...rule, from };
}

export function resolveTzSource(source: TzSource): ZoneTableSource {
  const rulesByName = new Map<string, RuleLine[]>();
  for (const line of source.rules) {
    const list = rulesByName.get(line.name);
    const rule = list ? beyondTwins(line, list) : line;
    if (rule === null) continue;
    if (list) list.push(rule);
    else rulesByName.set(rule.name, [rule]);
  }

  const zonesByName = new Map<string, ZoneDef>();
  for (const zone of source.zones) {
    const earlier = zonesByName.get(zone.name);
    if (earlier) {
      throw new TzResolveError(zone.pos.file, zone.pos.line,
        `duplicate zone name ${zone.name} (first defined at ${earlier.pos.file}:${earlier.pos.line})`);
    }
    zonesByName.set(zone.name, zone);
  }

  const zones: ResolvedZone[] = source.zones.map((zone) => ({
    name: zone.name,
    lines: zone.lines.map((line) => {
      if (line.rules.kind !== "named") return { ...line, ruleLines: [] };
      const ruleLines = rulesByName.get(line.rules.name);
      if (!ruleLines) {
        throw new TzResolveError(line.pos.file, line.pos.line, `unknown rule name "${line.rules.name}" in zone ${zone.name}`);
      }
      return { ...line, ruleLines };
    }),
  }));

  const linksByName = new Map<string, LinkDef>();
  for (const link of source.links) {
    if (zonesByName.has(link.name) || linksByName.has(link.name)) {
      throw new TzResolveError(link.pos.file, link.pos.line, `link name ${link.name} is already defined`);
    }
    linksByName.set(link.name, link);
  }

  const targets = new Map<string, string>();
  for (const zone of zones) targets.set(zone.name, zone.name);
  for (const link of source.links) {
    let target = link.target;
    const seen = new Set<string>([link.name]);
    while (!zonesByName.has(target)) {
      const next = linksByName.get(target);
      if (!next) {
        throw new TzResolveError(link.pos.file, link.pos.line, `link ${link.name} points to ${target}, which is not defined`);
      }
      if (seen.has(target)) {
        throw new TzResolveError(link.pos.file, link.pos.line, `link ${link.name} is part of a cycle of links`);
      }
      seen.add(target);
      target = next.target;
    }
    targets.set(link.name, target);
  }

  return { zones, targets, linkNames: new Set(linksByName.keys()), version: source.version };
}
