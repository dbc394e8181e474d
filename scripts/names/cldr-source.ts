// Reads the pinned CLDR JSON packages (cldr-core, cldr-bcp47, cldr-dates-full,
// cldr-localenames-full, cldr-numbers-full) into plain maps. Only the build reads them;
// the server reads the table compiled from them. cldr-json's locale folders are resolved
// (a locale's file carries what it inherits), so no runtime fallback walk is needed.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const modulesDir = (pkg: string) => dirname(Bun.resolveSync(`${pkg}/package.json`, import.meta.dir));
const readJson = (path: string): any => JSON.parse(readFileSync(path, "utf8"));

export interface ZoneNamesOfLocale {
  formats: Record<string, string>;
  /** Metazone id -> kind ("generic_long"...) -> name. */
  metazones: Map<string, Record<string, string>>;
  /** CLDR zone id -> kind or "exemplar" -> name. */
  zones: Map<string, Record<string, string>>;
}

export interface CldrSource {
  version: string;
  /** bcp47: CLDR canonical id -> its aliases (the first is itself) and IANA's name when it differs. */
  canonical: { id: string; aliases: string[]; iana: string | null }[];
  /** Per CLDR zone, its metazone periods: [from, to] as "YYYY-MM-DD HH:mm" UTC or null, metazone id. */
  periods: Map<string, { from: string | null; to: string | null; mz: string }[]>;
  /** metazone -> territory -> reference zone. */
  golden: Map<string, Map<string, string>>;
  primaryZones: Record<string, string>;
  likely: Record<string, string>;
  /** CLDR's language aliases (iw -> he, sh -> sr-Latn, art-lojban -> jbo), as ICU applies them to a tag. */
  languageAliases: Record<string, string>;
  /** The digits of each numeric numbering system ("latn" -> "0123456789"), for a tag's -u-nu-. */
  numberingDigits: Record<string, string>;
  locales: string[];
  zoneNames(locale: string): ZoneNamesOfLocale;
  territories(locale: string): Record<string, string>;
  /** The ten digits of the locale's default numbering system. */
  digits(locale: string): string;
}

const KINDS: [string, string, string][] = [
  ["long", "generic", "generic_long"], ["long", "standard", "standard_long"], ["long", "daylight", "daylight_long"],
  ["short", "generic", "generic_short"], ["short", "standard", "standard_short"], ["short", "daylight", "daylight_short"],
];

function namesOf(entry: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [length, type, kind] of KINDS) {
    const value = entry?.[length]?.[type];
    if (typeof value === "string") out[kind] = value;
  }
  if (typeof entry?.exemplarCity === "string") out.exemplar = entry.exemplarCity;
  return out;
}

/** Walks CLDR's nested zone tree ("America" -> "Argentina" -> "Salta") to "America/Argentina/Salta". */
function walkZones(tree: any, prefix: string, visit: (id: string, entry: any) => void): void {
  for (const [key, value] of Object.entries(tree)) {
    const id = prefix ? `${prefix}/${key}` : key;
    if (Array.isArray(value) || (value as any)?._type === "zone" || isLeaf(value)) visit(id, value);
    else walkZones(value, id, visit);
  }
}

function isLeaf(value: any): boolean {
  return typeof value === "object" && value !== null && ("exemplarCity" in value || "long" in value || "short" in value);
}

/** The cldr-core version installed (what a build would compile now). */
export function installedCldrVersion(): string {
  return readJson(join(modulesDir("cldr-core"), "package.json")).version;
}

export function readCldr(): CldrSource {
  const core = modulesDir("cldr-core");
  const dates = modulesDir("cldr-dates-full");
  const localenames = modulesDir("cldr-localenames-full");
  const numbers = modulesDir("cldr-numbers-full");
  const bcp47 = modulesDir("cldr-bcp47");
  const metaZones = readJson(join(core, "supplemental/metaZones.json")).supplemental.metaZones;
  const periods = new Map<string, { from: string | null; to: string | null; mz: string }[]>();
  walkZones(metaZones.metazoneInfo.timezone, "", (id, list) => {
    periods.set(id, (list as any[]).map((p) => ({ from: p.usesMetazone._from ?? null, to: p.usesMetazone._to ?? null, mz: p.usesMetazone._mzone })));
  });
  const golden = new Map<string, Map<string, string>>();
  for (const { mapZone } of metaZones.metazones) {
    if (!golden.has(mapZone._other)) golden.set(mapZone._other, new Map());
    golden.get(mapZone._other)!.set(mapZone._territory, mapZone._type);
  }
  const tz = readJson(join(bcp47, "bcp47/timezone.json")).keyword.u.tz;
  const canonical: CldrSource["canonical"] = [];
  for (const [key, entry] of Object.entries<any>(tz)) {
    if (key.startsWith("_") || typeof entry?._alias !== "string" || entry._deprecated) continue;
    const aliases = entry._alias.split(" ");
    canonical.push({ id: aliases[0], aliases, iana: entry._iana ?? null });
  }
  const numberingSystems = readJson(join(core, "supplemental/numberingSystems.json")).supplemental.numberingSystems;
  const locales = readdirSync(join(dates, "main")).filter((l) => existsSync(join(dates, "main", l, "timeZoneNames.json"))).sort();
  const parentOf = (locale: string) => locale.includes("-") ? locale.slice(0, locale.lastIndexOf("-")) : null;
  return {
    version: readJson(join(core, "package.json")).version,
    canonical,
    periods,
    golden,
    primaryZones: readJson(join(core, "supplemental/primaryZones.json")).supplemental.primaryZones,
    likely: readJson(join(core, "supplemental/likelySubtags.json")).supplemental.likelySubtags,
    languageAliases: Object.fromEntries(Object.entries(readJson(join(core, "supplemental/aliases.json")).supplemental.metadata.alias.languageAlias as Record<string, { _replacement: string }>)
      .map(([from, alias]) => [from.replaceAll("_", "-").toLowerCase(), alias._replacement])),
    numberingDigits: Object.fromEntries(Object.entries(readJson(join(core, "supplemental/numberingSystems.json")).supplemental.numberingSystems as Record<string, { _digits?: string; _type: string }>)
      .filter(([, system]) => system._type === "numeric" && system._digits !== undefined).map(([name, system]) => [name, system._digits!])),
    locales,
    zoneNames(locale) {
      const t = readJson(join(dates, "main", locale, "timeZoneNames.json")).main[locale].dates.timeZoneNames;
      const formats: Record<string, string> = {};
      for (const [k, v] of Object.entries(t)) if (typeof v === "string") formats[k] = v;
      const metazones = new Map<string, Record<string, string>>();
      for (const [id, entry] of Object.entries(t.metazone ?? {})) metazones.set(id, namesOf(entry));
      const zones = new Map<string, Record<string, string>>();
      walkZones(t.zone ?? {}, "", (id, entry) => zones.set(id, namesOf(entry)));
      return { formats, metazones, zones };
    },
    territories(locale) {
      for (let l: string | null = locale; l !== null; l = parentOf(l)) {
        const file = join(localenames, "main", l, "territories.json");
        if (existsSync(file)) return readJson(file).main[l].localeDisplayNames.territories;
      }
      return {};
    },
    digits(locale) {
      for (let l: string | null = locale; l !== null; l = parentOf(l)) {
        const file = join(numbers, "main", l, "numbers.json");
        if (!existsSync(file)) continue;
        const system = readJson(file).main[l].numbers.defaultNumberingSystem;
        const digits = numberingSystems[system]?._digits;
        return typeof digits === "string" && [...digits].length === 10 ? digits : "0123456789";
      }
      return "0123456789";
    },
  };
}
