// Builds generated/names.bin from the pinned CLDR packages and the tz release: the facts
// the names need from tzdb (names, links, zone.tab, iso3166.tab, abbreviations since
// 1970) are read from our own zones.bin and the release's .tab files.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { encodeNames, NAMES_FILE } from "../../server/formats/names-format.ts";
import type { NamesManifest } from "../../server/formats/manifest.ts";
import type { ZoneTable } from "../../server/tz/zone-table.ts";
import { sha256Hex, writeAtomically } from "../write-atomically.ts";
import { readCldr } from "./cldr-source.ts";
import { compileNames, type TzFacts } from "./compile-names.ts";

const SINCE = Date.UTC(1970, 0, 1) / 1000;

function tabRows(path: string): string[][] {
  return readFileSync(path, "utf8").split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((l) => l.split("\t"));
}

export function tzFacts(tzdbDir: string, zones: ZoneTable, builtAt: number): TzFacts {
  const links = new Map<string, string>();
  const abbreviations: TzFacts["abbreviations"] = new Map();
  const now = builtAt / 1000;
  for (const name of zones.names) {
    const resolved = zones.resolve(name)!;
    if (resolved.isLink) {
      links.set(name, zones.zoneName(resolved.zone));
      continue;
    }
    const since1970 = new Set<string>();
    // Up to ten years ahead: abbreviations a rule already announces count too.
    for (let t = SINCE; t < now + 10 * 365 * 86400;) {
      const period = zones.periodAt(resolved.zone, t);
      since1970.add(period.type.abbr);
      if (period.end === Infinity) break;
      t = period.end;
    }
    const recent = new Set<string>();
    for (let t = now - 366 * 86400; t < now + 366 * 86400;) {
      const period = zones.periodAt(resolved.zone, t);
      recent.add(period.type.abbr);
      if (period.end === Infinity) break;
      t = period.end;
    }
    abbreviations.set(name, { since1970, recent });
  }
  return {
    names: [...zones.names],
    links,
    zoneTab: tabRows(join(tzdbDir, "zone.tab")).map((r) => ({ country: r[0]!, name: r[2]! })),
    countries: tabRows(join(tzdbDir, "iso3166.tab")).map((r) => r[0]!),
    abbreviations,
    builtAt,
  };
}

export async function buildNames(tzdbDir: string, outDir: string, zones: ZoneTable, builtAt: string): Promise<NamesManifest> {
  const started = performance.now();
  const cldr = readCldr();
  const { input, stats } = compileNames(cldr, tzFacts(tzdbDir, zones, Date.parse(builtAt)));
  const bytes = encodeNames(input);
  writeAtomically(join(outDir, NAMES_FILE), bytes);
  return {
    source: "Unicode CLDR (npm cldr-core, cldr-dates-full, cldr-localenames-full, cldr-numbers-full, cldr-bcp47)",
    version: cldr.version,
    license: "Unicode-3.0",
    stats,
    file: { name: NAMES_FILE, bytes: bytes.length, sha256: sha256Hex(bytes) },
    buildMs: Math.round(performance.now() - started),
  };
}
