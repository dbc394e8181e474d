// A zone's CLDR name at an instant, in a locale, exactly as ICU (Intl.DateTimeFormat's
// timeZoneName "long" and "longGeneric") gives it, fallbacks included (CLDR TR35 part 4,
// "Using Time Zone Names", as ICU's TimeZoneFormat and TZGNCore implement it):
//
//   specific ("long"): the zone's own standard/daylight name, else its metazone's at that
//     instant, else the localized GMT format.
//   generic ("longGeneric"): the zone's own generic name; else its metazone's, where ICU
//     takes the standard name when no DST is within 184 days (unless it equals the
//     generic), and the partial location form "{metazone} ({city or country})" when the
//     metazone's reference zone for the locale's region has another offset; else the
//     generic location form ("{country} Time" for a country's primary zone, "{city} Time"
//     otherwise); else the localized GMT format.
//
// Offsets and DST come from our tables in ICU's rearguard split (icu-offsets.ts).

import { FormatSlot, NAME_KINDS, type NameKind } from "../formats/names-format.ts";
import { instantOfLocal } from "../tz/local-time.ts";
import type { ZoneTable } from "../tz/zone-table.ts";
import { dstNearby, icuOffsetsAt, type IcuOffsets } from "./icu-offsets.ts";
import { localizedGmt } from "./localized-gmt.ts";
import type { Locale, NamesTable } from "./names-table.ts";

export type LongNameKind = "specific" | "generic";

const KIND = Object.fromEntries(NAME_KINDS.map((k, i) => [k, i])) as Record<NameKind, number>;

export class ZoneNamer {
  readonly zones: ZoneTable;
  readonly names: NamesTable;

  constructor(zones: ZoneTable, names: NamesTable) {
    this.zones = zones;
    this.names = names;
  }

  /**
   * The long name of tz name `name` (any Zone or Link, canonical spelling) at unix second `t`:
   * "specific" is Intl's timeZoneName "long" (the standard or daylight name in force),
   * "generic" its "longGeneric". Undefined for a name our tz table does not have.
   */
  longNameAt(name: string, t: number, locale: Locale, kind: LongNameKind): string | undefined {
    const resolved = this.zones.resolve(name);
    if (resolved === undefined) return undefined;
    const offsets = icuOffsetsAt(this.zones, resolved.zone, t);
    const zone = this.names.zoneOf(resolved.name);
    let result = "";
    if (zone >= 0) {
      result = kind === "specific"
        ? this.specificName(zone, t, locale, offsets.sav !== 0 ? KIND.daylight_long : KIND.standard_long)
        : this.genericNonLocation(zone, resolved.zone, t, locale, offsets) || this.genericLocation(zone, locale);
    }
    return result || localizedGmt(this.names, locale, offsets.raw + offsets.sav);
  }

  /** TimeZoneNames::getDisplayName: the zone's own name of that kind, else its metazone's at `t`; "" when neither. */
  specificName(zone: number, t: number, locale: Locale, kind: number): string {
    const specific = this.names.zoneSpecific(zone);
    if (specific >= 0) {
      const own = this.names.slot(locale, this.names.specificSlot(specific, kind));
      if (own !== 0) return this.names.string(own);
    }
    const mz = this.names.metazoneAt(zone, t);
    return mz < 0 ? "" : this.names.string(this.names.slot(locale, this.names.metazoneSlot(mz, kind)));
  }

  metazoneName(mz: number, locale: Locale, kind: number): string {
    return this.names.string(this.names.slot(locale, this.names.metazoneSlot(mz, kind)));
  }

  private genericNonLocation(zone: number, tzZone: number, t: number, locale: Locale, offsets: IcuOffsets): string {
    const names = this.names;
    const specific = names.zoneSpecific(zone);
    if (specific >= 0) {
      const own = names.slot(locale, names.specificSlot(specific, KIND.generic_long));
      if (own !== 0) return names.string(own);
    }
    const mz = names.metazoneAt(zone, t);
    if (mz < 0) return "";
    const mzGeneric = this.metazoneName(mz, locale, KIND.generic_long);
    if (offsets.sav === 0 && !dstNearby(this.zones, tzZone, t)) {
      const standard = this.specificName(zone, t, locale, KIND.standard_long);
      // ICU: CLDR gives some metazones one name for generic and standard in some locales;
      // then the generic path below is taken (caseCompare: case-insensitive).
      if (standard !== "" && standard.toLowerCase() !== mzGeneric.toLowerCase()) return standard;
    }
    if (mzGeneric === "") return "";
    const region = names.regionIndex(names.string(names.slot(locale, FormatSlot.TargetRegion)));
    const golden = names.referenceZone(mz, region);
    if (golden < 0 || golden === zone) return mzGeneric;
    const goldenTz = this.zones.resolve(names.zoneIanaName(golden));
    if (goldenTz === undefined) return mzGeneric;
    // The reference zone's offsets at our wall time, as ICU reads a local time there
    // (OlsonTimeZone::getOffset(date + raw + sav, local): a repeated wall time is the latter,
    // after the change; a skipped one the former, before it).
    const wall = t + offsets.raw + offsets.sav;
    let read = instantOfLocal(this.zones, goldenTz.zone, wall, "later");
    if (read.kind === "skipped") read = instantOfLocal(this.zones, goldenTz.zone, wall, "earlier");
    const g = icuOffsetsAt(this.zones, goldenTz.zone, read.instant!);
    if (g.raw === offsets.raw && g.sav === offsets.sav) return mzGeneric;
    return this.partialLocation(zone, mz, locale, mzGeneric);
  }

  /** ICU's getPartialLocationName: the fallback format over the metazone name and a city or country. */
  private partialLocation(zone: number, mz: number, locale: Locale, mzName: string): string {
    const names = this.names;
    const region = names.zoneRegion(zone);
    let location: string;
    if (region >= 0) {
      location = names.referenceZone(mz, region) === zone ? this.countryName(region, locale) : this.exemplarCity(zone, locale);
    } else {
      location = this.exemplarCity(zone, locale) || names.zoneId(zone);
    }
    const pattern = names.string(names.slot(locale, FormatSlot.FallbackFormat)) || "{1} ({0})";
    return pattern.replace("{1}", mzName).replace("{0}", location);
  }

  /** The generic location format ("Germany Time", "Los Angeles Time"); "" for a zone in no country. */
  genericLocation(zone: number, locale: Locale): string {
    const names = this.names;
    const region = names.zoneRegion(zone);
    if (region < 0) return "";
    const location = names.zoneIsPrimary(zone) ? this.countryName(region, locale) : this.exemplarCity(zone, locale);
    const pattern = names.string(names.slot(locale, FormatSlot.RegionFormat)) || "{0}";
    return pattern.replace("{0}", location);
  }

  countryName(region: number, locale: Locale): string {
    const id = this.names.slot(locale, this.names.regionSlot(region));
    return id === 0 ? this.names.regionCode(region) : this.names.string(id);
  }

  /** CLDR's exemplar city, else the last segment of the CLDR id with spaces (none for Etc/ ids). */
  exemplarCity(zone: number, locale: Locale): string {
    const id = this.names.slot(locale, this.names.exemplarSlot(zone));
    if (id !== 0) return this.names.string(id);
    const zoneId = this.names.zoneId(zone);
    if (zoneId.startsWith("Etc/") || zoneId.startsWith("SystemV/")) return "";
    const slash = zoneId.lastIndexOf("/");
    return slash > 0 && slash + 1 < zoneId.length ? zoneId.slice(slash + 1).replaceAll("_", " ") : "";
  }
}
