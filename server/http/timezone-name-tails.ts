// The `timezone_name` tail that `?lang=` adds to a time object (lang-param.ts), kept for
// the second it was made for. Resolving the locale and naming the zone cost about 2 us a
// request; the name in force changes only at a clock or metazone change, never inside a
// second, so a clock polling the same zone in the same language pays that once a second.
//
// Keyed by the zone (its ResolvedName object: no string hashing) and then by the query
// that named the locale, with one entry per format. Bounded: at most QUERIES_PER_ZONE
// queries a zone (cleared when full), and the zones are the table's. It lives in ApiData:
// a reload starts empty.

import type { Format } from "../time-object/time-object.ts";
import type { ResolvedName } from "../tz/zone-table.ts";

interface Tail {
  second: number;
  bytes: Uint8Array;
}

const QUERIES_PER_ZONE = 16;

export class TimezoneNameTails {
  private readonly byZone = new Map<ResolvedName, Map<string, [Tail | null, Tail | null]>>();

  /** The tail kept for `name` under `query` in `format` at `second`, if any. */
  get(name: ResolvedName, query: string, format: Format, second: number): Uint8Array | undefined {
    const tail = this.byZone.get(name)?.get(query)?.[format === "json" ? 0 : 1];
    return tail !== null && tail !== undefined && tail.second === second ? tail.bytes : undefined;
  }

  put(name: ResolvedName, query: string, format: Format, second: number, bytes: Uint8Array): void {
    let byQuery = this.byZone.get(name);
    if (byQuery === undefined) this.byZone.set(name, (byQuery = new Map()));
    let tails = byQuery.get(query);
    if (tails === undefined) {
      if (byQuery.size >= QUERIES_PER_ZONE) byQuery.clear();
      byQuery.set(query, (tails = [null, null]));
    }
    tails[format === "json" ? 0 : 1] = { second, bytes };
  }
}
