// CLDR + the tz release -> the sections of names.bin (server/formats/names-format.ts).
// Every locale of cldr-dates-full is kept (766 in CLDR 48): the strings are shared
// between locales, so the whole table stays a few MB, and a request in any language
// CLDR knows gets CLDR's own names rather than a fallback.

import { encodeKeyBlocks } from "../../server/formats/key-blocks.ts";
import {
  FORMAT_SLOTS, FormatSlot, NAME_KINDS, NamesSection, OPEN_END, OPEN_START, SECTION_COUNT, SLOT_BLOCK, type NamesInput,
} from "../../server/formats/names-format.ts";
import { searchFold } from "../../server/core/search-fold.ts";
import { HOUR_FORMAT_ICU_LACKS } from "../../server/names/icu-locales.ts";
import type { CldrSource } from "./cldr-source.ts";

export interface TzFacts {
  /** Every Zone and Link name of the release. */
  names: string[];
  /** Link name -> its target. */
  links: Map<string, string>;
  /** zone.tab rows. */
  zoneTab: { country: string; name: string }[];
  /** iso3166.tab's codes. */
  countries: string[];
  /** Per Zone name, the abbreviations in use since 1970, and those in use within a year of the build. */
  abbreviations: Map<string, { since1970: Set<string>; recent: Set<string> }>;
  builtAt: number;
}

class StringPool {
  readonly strings: string[] = [""];
  private readonly ids = new Map<string, number>([["", 0]]);
  id(s: string | undefined): number {
    if (s === undefined || s === "") return 0;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    return id;
  }
}

const minutes = (date: string | null, open: number) => {
  if (date === null) return open;
  return Math.floor(Date.parse(date.replace(" ", "T") + ":00Z") / 60000);
};

export function compileNames(cldr: CldrSource, tz: TzFacts): { input: NamesInput; stats: Record<string, number> } {
  const pool = new StringPool();
  const tzNames = new Set(tz.names);
  // CLDR's zones, and each one's IANA name in our release.
  const zones = cldr.canonical;
  const zoneIndex = new Map<string, number>();
  zones.forEach((z, i) => z.aliases.forEach((a) => zoneIndex.set(a, i)));
  const ianaOf = zones.map((z) => {
    if (z.iana && tzNames.has(z.iana)) return z.iana;
    return z.aliases.find((a) => tzNames.has(a) && !tz.links.has(a)) ?? z.aliases.find((a) => tzNames.has(a)) ?? z.id;
  });
  // V8 hands ICU "UTC" for these spellings (Intl's time zone canonicalization), so Intl
  // names them as Etc/UTC ("Coordinated Universal Time"), not as CLDR's Etc/GMT
  // ("Greenwich Mean Time"): found by test/names/icu-names.test.ts for GMT0, GMT+0, GMT-0.
  for (const name of ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "GMT0", "GMT+0", "GMT-0"]) if (zoneIndex.has("Etc/UTC")) zoneIndex.set(name, zoneIndex.get("Etc/UTC")!);

  // Regions: every territory any locale names, and every zone.tab country.
  const regionSet = new Set<string>(tz.countries);
  for (const r of tz.zoneTab) regionSet.add(r.country);
  const enTerritories = cldr.territories("en");
  for (const code of Object.keys(enTerritories)) if (!code.includes("-alt-")) regionSet.add(code);
  const regions = [...regionSet].sort();
  const regionIndex = new Map(regions.map((r, i) => [r, i]));

  // A zone's country as ICU has it: the zone.tab row of any of its names.
  const zoneRegion = new Int32Array(zones.length).fill(-1);
  for (const row of tz.zoneTab) {
    const z = zoneIndex.get(row.name);
    if (z !== undefined) zoneRegion[z] = regionIndex.get(row.country)!;
  }
  const zonesInRegion = new Map<number, number>();
  for (const r of zoneRegion) if (r >= 0) zonesInRegion.set(r, (zonesInRegion.get(r) ?? 0) + 1);
  const primary = zones.map((z, i) => {
    const r = zoneRegion[i]!;
    if (r < 0) return 0;
    if (zonesInRegion.get(r) === 1) return 1;
    const p = cldr.primaryZones[regions[r]!];
    return p !== undefined && z.aliases.includes(p) ? 1 : 0;
  });

  const metazones = [...new Set([...cldr.golden.keys(), ...[...cldr.periods.values()].flat().map((p) => p.mz)])].sort();
  const mzIndex = new Map(metazones.map((m, i) => [m, i]));

  // Locales: their names, and which zones have names of their own anywhere.
  const perLocale = cldr.locales.map((locale) => ({ locale, names: cldr.zoneNames(locale) }));
  const specificSet = new Set<number>();
  for (const { names } of perLocale) {
    for (const [id, entry] of names.zones) {
      const z = zoneIndex.get(id);
      if (z !== undefined && NAME_KINDS.some((k) => entry[k] !== undefined)) specificSet.add(z);
    }
  }
  const specific = [...specificSet].sort((a, b) => a - b);
  const specificIndex = new Map(specific.map((z, i) => [z, i]));

  const mzBase = FORMAT_SLOTS;
  const zoneBase = mzBase + 6 * metazones.length;
  const specificBase = zoneBase + zones.length;
  const regionBase = specificBase + 6 * specific.length;
  const slotsPerLocale = regionBase + regions.length;
  const slots = new Int32Array(perLocale.length * slotsPerLocale);
  const search = new Map<string, { rank: number; name: string }[]>();
  const addKey = (text: string | undefined, name: string, rank: number) => {
    if (!text) return;
    const key = searchFold(text);
    if (key === "" || key.length > 100) return;
    let list = search.get(key);
    if (list === undefined) search.set(key, (list = []));
    list.push({ rank, name });
  };

  // Which zones a metazone holds at the build instant (or ever, for a retired one).
  const buildMinute = Math.floor(tz.builtAt / 60000);
  const membersNow = new Map<string, number[]>();
  const membersEver = new Map<string, number[]>();
  for (const [id, list] of cldr.periods) {
    const z = zoneIndex.get(id);
    if (z === undefined) continue;
    for (const p of list) {
      (membersEver.get(p.mz) ?? membersEver.set(p.mz, []).get(p.mz)!).push(z);
      if (minutes(p.from, OPEN_START) <= buildMinute && buildMinute < minutes(p.to, OPEN_END)) {
        (membersNow.get(p.mz) ?? membersNow.set(p.mz, []).get(p.mz)!).push(z);
      }
    }
  }
  const metazoneZones = (mz: string): string[] => {
    const golden = cldr.golden.get(mz)?.get("001");
    const members = [...new Set(membersNow.get(mz) ?? membersEver.get(mz) ?? [])].map((z) => ianaOf[z]!);
    const goldenName = golden !== undefined && zoneIndex.has(golden) ? ianaOf[zoneIndex.get(golden)!]! : null;
    members.sort((a, b) => (a === goldenName ? -1 : b === goldenName ? 1 : a < b ? -1 : a > b ? 1 : 0));
    return members;
  };
  const mzResults = new Map(metazones.map((m) => [m, metazoneZones(m)]));

  perLocale.forEach(({ locale, names }, l) => {
    const base = l * slotsPerLocale;
    const f = names.formats;
    const set = (slot: number, s: string | undefined) => (slots[base + slot] = pool.id(s));
    set(FormatSlot.HourFormat, HOUR_FORMAT_ICU_LACKS.has(locale) ? undefined : f.hourFormat);
    set(FormatSlot.GmtFormat, f.gmtFormat);
    set(FormatSlot.GmtZeroFormat, f.gmtZeroFormat);
    set(FormatSlot.RegionFormat, f.regionFormat);
    set(FormatSlot.RegionFormatStandard, f["regionFormat-type-standard"]);
    set(FormatSlot.RegionFormatDaylight, f["regionFormat-type-daylight"]);
    set(FormatSlot.FallbackFormat, f.fallbackFormat);
    set(FormatSlot.Digits, cldr.digits(locale));
    set(FormatSlot.TargetRegion, targetRegion(locale, cldr.likely));
    metazones.forEach((mz, m) => {
      const entry = names.metazones.get(mz) ?? {};
      NAME_KINDS.forEach((k, i) => {
        set(mzBase + 6 * m + i, entry[k]);
        for (const name of mzResults.get(mz)!) addKey(entry[k], name, 2);
      });
    });
    for (const [id, entry] of names.zones) {
      const z = zoneIndex.get(id);
      if (z === undefined) continue;
      set(zoneBase + z, entry.exemplar);
      addKey(entry.exemplar, ianaOf[z]!, 3);
      const s = specificIndex.get(z);
      if (s !== undefined) NAME_KINDS.forEach((k, i) => {
        set(specificBase + 6 * s + i, entry[k]);
        addKey(entry[k], ianaOf[z]!, 1);
      });
    }
    const territories = cldr.territories(locale);
    regions.forEach((r, i) => set(regionBase + i, territories[r]));
  });

  // tzdb's abbreviations since 1970: the zones using one now first, a metazone's
  // reference zone first among them (CET: Europe/Paris, PST: America/Los_Angeles).
  const goldenNames = new Set<string>();
  for (const map of cldr.golden.values()) {
    const z = map.get("001");
    if (z !== undefined && zoneIndex.has(z)) goldenNames.add(ianaOf[zoneIndex.get(z)!]!);
  }
  for (const [zone, { since1970, recent }] of tz.abbreviations) {
    for (const abbr of since1970) {
      if (/[A-Za-z]/.test(abbr)) addKey(abbr, zone, recent.has(abbr) ? (goldenNames.has(zone) ? 0 : 0.25) : 0.5);
    }
  }
  // Every name's last segment and the whole name; a link the way CLDR names its zone.
  for (const name of tz.names) {
    const z = zoneIndex.get(name);
    const target = z !== undefined ? ianaOf[z]! : tz.links.get(name) ?? name;
    const segment = name.slice(name.lastIndexOf("/") + 1);
    addKey(segment, target, 4);
    addKey(name, target, 4);
  }

  const keys = [...search.keys()].map((k) => ({ k, bytes: new TextEncoder().encode(k) }));
  keys.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const resultCounts: number[] = [];
  const results: number[] = [];
  keys.forEach(({ k }) => {
    const seen = new Set<string>();
    const ranked = search.get(k)!.slice().sort((a, b) => a.rank - b.rank);
    const first = results.length;
    for (const { name } of ranked) if (!seen.has(name)) (seen.add(name), results.push(pool.id(name)));
    resultCounts.push(results.length - first);
  });
  // Front-coded (key-blocks.ts): the keys are not strings of the pool.
  const searchKeys = encodeKeyBlocks(keys.map((k) => k.bytes), resultCounts);

  const zoneInfo = new Int32Array(6 * zones.length);
  const periodInts: number[] = [];
  zones.forEach((z, i) => {
    const list = z.aliases.map((a) => cldr.periods.get(a)).find((p) => p !== undefined) ?? [];
    zoneInfo.set([zoneRegion[i]!, primary[i]!, specificIndex.get(i) ?? -1, periodInts.length / 3, list.length, pool.id(ianaOf[i])], 6 * i);
    for (const p of list) periodInts.push(minutes(p.from, OPEN_START), minutes(p.to, OPEN_END), mzIndex.get(p.mz)!);
  });
  const golden: number[] = [];
  const goldenPairs: number[] = [];
  for (const mz of metazones) {
    const map = cldr.golden.get(mz) ?? new Map<string, string>();
    golden.push(goldenPairs.length / 2, map.size);
    for (const [territory, zone] of map) goldenPairs.push(territory === "001" ? -1 : regionIndex.get(territory) ?? -2, zoneIndex.get(zone) ?? -1);
  }
  const nameMap: number[] = [];
  const mapped = [...new Set([...tz.names, ...zoneIndex.keys()])].sort();
  for (const name of mapped) {
    const z = zoneIndex.get(name) ?? (tz.links.has(name) ? zoneIndex.get(tz.links.get(name)!) : undefined);
    nameMap.push(pool.id(name), z ?? -1);
  }
  const countryZones: number[] = [];
  const countryZoneNames: number[] = [];
  for (const country of [...tz.countries].sort()) {
    const names = tz.zoneTab.filter((r) => r.country === country).map((r) => r.name).sort();
    countryZones.push(regionIndex.get(country)!, countryZoneNames.length, names.length);
    for (const n of names) countryZoneNames.push(pool.id(n));
  }

  const localeTags = perLocale.map(({ locale }) => locale);
  const order = localeTags.map((_, i) => i).sort((a, b) => cmp(localeTags[a]!.toLowerCase(), localeTags[b]!.toLowerCase()));
  // Each locale's slots by blocks of SLOT_BLOCK, each distinct block stored once.
  const blocksPerLocale = Math.ceil(slotsPerLocale / SLOT_BLOCK);
  const slotIndex = new Uint16Array(order.length * blocksPerLocale);
  const blockIds = new Map<string, number>();
  const slotBlocks: number[] = [];
  order.forEach((from, to) => {
    for (let b = 0; b < blocksPerLocale; b++) {
      const block = new Int32Array(SLOT_BLOCK);
      const start = from * slotsPerLocale + b * SLOT_BLOCK;
      block.set(slots.subarray(start, Math.min(start + SLOT_BLOCK, (from + 1) * slotsPerLocale)));
      const key = block.join(",");
      let id = blockIds.get(key);
      if (id === undefined) {
        id = blockIds.size;
        if (id > 0xffff) throw new Error("names: more distinct slot blocks than a u16 index holds");
        blockIds.set(key, id);
        slotBlocks.push(...block);
      }
      slotIndex[to * blocksPerLocale + b] = id;
    }
  });
  // Where a tag without a script means another script than its language's default
  // ("zh-TW" is zh-Hant-TW, "sr-ME" sr-Latn-ME), from CLDR's likely subtags.
  const scripts: Record<string, string> = {};
  for (const [from, to] of Object.entries(cldr.likely)) {
    const [lang, region] = from.split("-");
    if (!lang || !region || !/^([A-Z]{2}|\d{3})$/.test(region)) continue;
    const script = to.split("-")[1];
    const plain = cldr.likely[lang]?.split("-")[1];
    if (script && script !== plain) scripts[from] = script;
  }
  const metadata = pool.id(JSON.stringify({ cldrVersion: cldr.version, scripts, languageAliases: cldr.languageAliases, numberingDigits: cldr.numberingDigits }));

  const sections: Int32Array[] = new Array(SECTION_COUNT);
  sections[NamesSection.Meta] = Int32Array.from([perLocale.length, slotsPerLocale, metazones.length, zones.length, specific.length, regions.length, metadata, keys.length]);
  sections[NamesSection.LocaleTags] = Int32Array.from(order.map((i) => pool.id(localeTags[i])));
  sections[NamesSection.SlotBlocks] = Int32Array.from(slotBlocks);
  sections[NamesSection.MetazoneIds] = Int32Array.from(metazones.map((m) => pool.id(m)));
  sections[NamesSection.ZoneIds] = Int32Array.from(zones.map((z) => pool.id(z.id)));
  sections[NamesSection.ZoneInfo] = zoneInfo;
  sections[NamesSection.MzPeriods] = Int32Array.from(periodInts);
  sections[NamesSection.Golden] = Int32Array.from(golden);
  sections[NamesSection.GoldenPairs] = Int32Array.from(goldenPairs);
  sections[NamesSection.RegionCodes] = Int32Array.from(regions.map((r) => pool.id(r)));
  sections[NamesSection.NameMap] = Int32Array.from(nameMap);
  sections[NamesSection.CountryZones] = Int32Array.from(countryZones);
  sections[NamesSection.CountryZoneNames] = Int32Array.from(countryZoneNames);
  sections[NamesSection.SearchBlockStarts] = new Int32Array(searchKeys.blockStarts.buffer);
  sections[NamesSection.SearchResults] = Int32Array.from(results);
  sections[NamesSection.SearchBlockEntries] = new Int32Array(searchKeys.blockEntries.buffer);
  return {
    input: { sections, strings: pool.strings, searchKeyBytes: searchKeys.bytes, slotIndex },
    stats: {
      locales: perLocale.length, metazones: metazones.length, zones: zones.length, regions: regions.length, searchKeys: keys.length,
      strings: pool.strings.length, slotBlocks: blockIds.size,
    },
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * ICU's "target region" of a locale (TZGNCore): the tag's own region, else the one CLDR's
 * likely subtags add. It picks the metazone's reference zone for that region.
 */
function targetRegion(locale: string, likely: Record<string, string>): string {
  const parts = locale.split("-");
  const region = parts.slice(1).find((p) => /^([A-Z]{2}|\d{3})$/.test(p));
  if (region) return region;
  const full = likely[locale] ?? likely[parts[0]!] ?? "";
  return full.split("-").find((p, i) => i > 0 && /^([A-Z]{2}|\d{3})$/.test(p)) ?? "";
}
