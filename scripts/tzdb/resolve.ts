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
 * Whether a Rule line says word for word what an earlier one says (95m-96f copy Egypt's rules
 * from africa into asia, Russia's are the same in asia and europe). Today's zic refuses the
 * copies ("two rules for same instant"); the zic of those releases kept the first and found
 * the copy's firing a change of nothing (its addtt drops a type equal to the last one, even
 * when the copy, timed with the DST the first just started, falls an hour earlier). Its
 * output is the same bytes without the copies (test/support/twin-rules.ts): so is ours.
 */
const copies = (a: RuleLine, b: RuleLine) =>
  a.from === b.from && a.to === b.to && a.yearType === b.yearType && a.month === b.month &&
  a.daySpec.kind === b.daySpec.kind && a.daySpec.day === b.daySpec.day && a.daySpec.weekday === b.daySpec.weekday &&
  a.at === b.at && a.atType === b.atType && a.save === b.save && a.isdst === b.isdst && a.letters === b.letters;

export function resolveTzSource(source: TzSource): ZoneTableSource {
  const rulesByName = new Map<string, RuleLine[]>();
  for (const rule of source.rules) {
    const list = rulesByName.get(rule.name);
    if (list?.some((earlier) => copies(earlier, rule))) continue;
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
