// The tz compiler end to end: zic input text -> parse -> resolve -> transitions -> the
// input of the zones.bin encoder. Pure: reading and writing files is the caller's job.

import type { ZoneFacts, ZoneTableInput } from "../../server/formats/zones-format.ts";
import type { CompiledZone } from "../../server/formats/zone-model.ts";
import type { FactsSource } from "./zone-facts.ts";
import { parseTzSources } from "./parse.ts";
import { resolveTzSource, type ZoneTableSource } from "./resolve.ts";
import { compileZone } from "./transitions.ts";

/** Names that are never served: `Factory` is a placeholder for unconfigured machines. */
export const EXCLUDED_NAMES = new Set(["Factory"]);

/** Transitions are stored through at least this year (as zic's fat TZif files are). */
const MIN_HORIZON_YEAR = 2037;

export interface CompiledTzdb {
  version: string;
  source: ZoneTableSource;
  zones: Map<string, CompiledZone>;
  horizonYear: number;
}

/**
 * The last year whose transitions are stored: two years past the last year any rule or
 * UNTIL names, so that from then on only TO=max rules are in force and the footer
 * reproduces exactly what the stored table would have said.
 */
export function horizonOf(source: ZoneTableSource): { horizonYear: number; firstYear: number } {
  let last = MIN_HORIZON_YEAR;
  let first = Infinity;
  for (const zone of source.zones) {
    for (const line of zone.lines) {
      if (line.until) last = Math.max(last, line.until.year);
      for (const r of line.ruleLines) {
        for (const y of [r.from, r.to]) {
          if (Number.isFinite(y)) {
            last = Math.max(last, y);
            first = Math.min(first, y);
          }
        }
      }
    }
  }
  return { horizonYear: last + 2, firstYear: Number.isFinite(first) ? first : 1800 };
}

export function compileTzdb(files: readonly { name: string; text: string }[], fallbackVersion = "unknown"): CompiledTzdb {
  const source = resolveTzSource(parseTzSources(files));
  const { horizonYear, firstYear } = horizonOf(source);
  const zones = new Map<string, CompiledZone>();
  for (const zone of source.zones) {
    if (EXCLUDED_NAMES.has(zone.name)) continue;
    zones.set(zone.name, compileZone(zone, horizonYear, firstYear));
  }
  return { version: source.version ?? fallbackVersion, source, zones, horizonYear };
}

export function toTableInput(tz: CompiledTzdb, builtAt: string, facts: FactsSource | null = null): ZoneTableInput {
  const zoneNames = [...tz.zones.keys()];
  const zoneIndex = new Map(zoneNames.map((n, i) => [n, i]));
  const names: ZoneTableInput["names"] = [];
  for (const [name, target] of tz.source.targets) {
    if (EXCLUDED_NAMES.has(name)) continue;
    const zone = zoneIndex.get(target);
    if (zone === undefined) continue; // a link to an excluded zone
    names.push({ name, zone, isLink: tz.source.linkNames.has(name) });
  }
  // A name without its own row in the .tab files (a Link such as US/Eastern, or UTC) tells its target's.
  const namedFacts = facts === null ? undefined : new Map<string, ZoneFacts>();
  if (facts !== null) {
    for (const { name } of names) {
      const row = facts.byName.get(name) ?? facts.byName.get(tz.source.targets.get(name)!);
      if (row) namedFacts!.set(name, row);
    }
  }
  return {
    tzdbVersion: tz.version,
    builtAt,
    ...(facts === null ? {} : { facts: namedFacts, countryNames: facts.countryNames }),
    zones: zoneNames.map((name) => ({ name, compiled: tz.zones.get(name)! })),
    names,
  };
}
