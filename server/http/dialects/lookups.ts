// The lookups every dialect shares, answering null instead of throwing the service's own
// errors, so each dialect can say "not found" in its own words: a name, a point, an
// address, and the query parameters as the dialects' clients spell them.

import { parseIp } from "../../ip/address.ts";
import { lookupKey } from "../../ip/special-ranges.ts";
import type { ResolvedName } from "../../tz/zone-table.ts";
import type { ApiData } from "../pipeline/api-data.ts";
import { zoneNamed } from "../params/zone-name.ts";

export function zoneByName(data: ApiData, name: string): ResolvedName | null {
  return zoneNamed(data.zones, name);
}

/** The zones at a point (the first is the answer); every geo.bin name resolves (load-data.ts checks). */
export function zonesAtPoint(data: ApiData, lat: number, lng: number): ResolvedName[] {
  return data.geo.answers[data.geo.answerAt(lat, lng)]!.map((name) => data.zones.resolve(name)!);
}

/** The zone of an address; "malformed" when it is no address, null when it has no location. */
export function zoneOfIp(data: ApiData, text: string): ResolvedName | null | "malformed" {
  const address = text.length > 64 ? null : parseIp(text);
  if (!address) return "malformed";
  const key = lookupKey(address);
  if (key.version === 0) return null;
  const zoneName = data.ip.zoneFor(key);
  return zoneName === null ? null : data.zones.resolve(zoneName) ?? null;
}

/** A language as Google's `language` and Accept-Language name one: `fr`, `zh-TW`, `sr_Latn`. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,3}$/;

/** XML text content with the five predefined entities escaped, and characters XML 1.0 forbids dropped. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "\"" ? "&quot;" : c === "'" ? "&apos;" : "");
}

/** English weekday names, Sunday = 0 (the time object's day_of_week). */
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
