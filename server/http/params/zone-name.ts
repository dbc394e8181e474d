// A timezone name as a parameter, the one parser every route and dialect uses: in a path
// (`/timezone/{name*}`, percent-decoded, `+` literal) or in a query (`/convert?from=`,
// `/clock?zones=`, timeapi.io's `timeZone`, TimeZoneDB's `zone`: form-decoded, params/query.ts).

import type { ResolvedName, ZoneTable } from "../../tz/zone-table.ts";
import { safeDecode } from "../pipeline/request-target.ts";
import { MALFORMED_PATH, UNKNOWN_LOCATION } from "../pipeline/http-errors.ts";

/** A name longer than this is no name (the longest in 2026f has 32 characters): refused before any work. */
export const MAX_NAME_LENGTH = 64;

/**
 * The zone a decoded name names, or null. A query's `+` arrives as a space when a client
 * does not escape it (`?zones=Etc/GMT+5`); no tz name has a space, so one is read as `+`.
 */
export function zoneNamed(zones: ZoneTable, name: string): ResolvedName | null {
  if (name.length > MAX_NAME_LENGTH) return null;
  const found = zones.resolve(name);
  if (found !== undefined) return found;
  return name.includes(" ") ? zones.resolve(name.replaceAll(" ", "+")) ?? null : null;
}

/** A decoded name as a Zone or Link, or 404 unknown location. */
export function resolveName(zones: ZoneTable, name: string): ResolvedName {
  const resolved = zoneNamed(zones, name);
  if (resolved === null) throw UNKNOWN_LOCATION();
  return resolved;
}

/** A raw `{name*}` path parameter decoded, with the refusals every name route shares (no lookup). */
export function nameParam(raw: string): string {
  if (raw.length > MAX_NAME_LENGTH * 3) throw UNKNOWN_LOCATION();
  const name = safeDecode(raw);
  if (name === null) throw MALFORMED_PATH();
  if (name.length > MAX_NAME_LENGTH) throw UNKNOWN_LOCATION();
  return name;
}

/** A raw `{name*}` path parameter as a Zone or Link, or 404 unknown location. */
export function resolveNameParam(zones: ZoneTable, raw: string): ResolvedName {
  return resolveName(zones, nameParam(raw));
}
