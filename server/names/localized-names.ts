// The `names` object of /timezone/{name}/info?lang=: a zone's CLDR names in one locale at
// one instant. The long names are ICU's (zone-namer.ts, with its fallbacks); the short
// ones and the exemplar city are CLDR's data as it stands (null where CLDR has none, as
// most locales have no short names but for a few metazones).

import { NAME_KINDS, type NameKind } from "../formats/names-format.ts";
import { dstNearby, icuOffsetsAt } from "./icu-offsets.ts";
import { localizedGmt } from "./localized-gmt.ts";
import type { Locale } from "./names-table.ts";
import type { ZoneNamer } from "./zone-namer.ts";

export interface LocalizedNames {
  /** The CLDR locale used (`de` for `lang=de-CH-1996` when CLDR has no closer one). */
  locale: string;
  generic_long: string;
  standard_long: string;
  /** null where the zone keeps no DST within half a year of the instant. */
  daylight_long: string | null;
  generic_short: string | null;
  standard_short: string | null;
  daylight_short: string | null;
  exemplar_city: string | null;
  /** The zone's countries (zone1970.tab / zone.tab), named in the locale. */
  country_names: { code: string; name: string }[];
}

const KIND = Object.fromEntries(NAME_KINDS.map((k, i) => [k, i])) as Record<NameKind, number>;

export function localizedNames(namer: ZoneNamer, name: string, t: number, locale: Locale, countries: readonly string[]): LocalizedNames | undefined {
  const resolved = namer.zones.resolve(name);
  if (resolved === undefined) return undefined;
  const names = namer.names;
  const zone = names.zoneOf(resolved.name);
  const offsets = icuOffsetsAt(namer.zones, resolved.zone, t);
  const hasDst = offsets.sav !== 0 || dstNearby(namer.zones, resolved.zone, t);
  const cldr = (kind: number) => (zone >= 0 ? namer.specificName(zone, t, locale, kind) : "") || null;
  const exemplar = zone >= 0 ? namer.exemplarCity(zone, locale) : "";
  return {
    locale: locale.tag,
    generic_long: namer.longNameAt(resolved.name, t, locale, "generic")!,
    standard_long: cldr(KIND.standard_long) ?? localizedGmt(names, locale, offsets.raw),
    daylight_long: hasDst ? cldr(KIND.daylight_long) ?? localizedGmt(names, locale, offsets.raw + (offsets.sav || 3600)) : null,
    generic_short: cldr(KIND.generic_short),
    standard_short: cldr(KIND.standard_short),
    daylight_short: hasDst ? cldr(KIND.daylight_short) : null,
    exemplar_city: exemplar || null,
    country_names: countries.map((code) => {
      const region = names.regionIndex(code);
      return { code, name: region >= 0 ? namer.countryName(region, locale) : code };
    }),
  };
}
