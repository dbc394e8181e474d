// Where a parameter is, remembered. `/ip/{address}` parses its address, classifies it
// and walks the IP ranges; `/coordinates/{point}` parses two numbers and walks the
// boundary grid; timeapi.io's routes parse their query and do either, or resolve a name;
// `/clock` splits and resolves its list of names. Each result is a function of the text
// (the path parameter, timeapi.io's whole URL, /clock's query) and the data alone, and a
// clock or a dashboard asks the same one again and again, so the same text again costs
// one Map lookup. In process (`bun scripts/bench/handler-cpu.ts`, CPU us a request):
// /ip/8.8.8.8 1.67 -> 1.41, the IPv6 form 2.02 -> 1.43, /coordinates 1.66 -> 1.44,
// /clock with three names 2.72 -> 2.14, timeapi.io's v1 current time 2.23 -> 1.73.
//
// Entries live in ApiData (a reload starts empty). A refused parameter is never
// remembered: it is refused again each time. Bounded as the route memo is: at most
// `maxEntries` texts of at most `maxLength` characters, cleared when full. Heap when full
// of the longest texts, measured: 0.7 MB of addresses, 0.9 MB of points, 1.3 MB of
// timeapi.io URLs, 2.5 MB of /clock queries (1,024 of them, 64 names each).

import type { ResolvedName } from "../tz/zone-table.ts";

const MAX_ENTRIES = 4096;
/** A /clock query's list holds up to 64 names in 256 characters: fewer of those. */
export const MAX_LIST_ENTRIES = 1024;
/** An IPv6 address with an IPv4 tail is at most 45 characters; a point with 20 decimals each, about 50. */
export const MAX_PARAM_LENGTH = 64;
/** As the route memo's (route-memo.ts). */
export const MAX_URL_LENGTH = 256;

/** An address's zone, and the address as client_ip shows it (normalised). */
export interface LocatedAddress {
  zone: ResolvedName;
  shown: string;
}

/** A point's zone, and the other zones the boundary data gives there (disputed areas). */
export interface LocatedPoint {
  zone: ResolvedName;
  others: readonly string[];
}

export class LocatedParams<T> {
  private readonly entries = new Map<string, T>();
  private readonly maxLength: number;
  private readonly maxEntries: number;

  constructor(maxLength = MAX_PARAM_LENGTH, maxEntries = MAX_ENTRIES) {
    this.maxLength = maxLength;
    this.maxEntries = maxEntries;
  }

  /** What `text` (the parameter as sent) was found to be; the answer is shared: never change it. */
  recall(text: string): T | undefined {
    return this.entries.get(text);
  }

  remember(text: string, located: T): void {
    if (text.length > this.maxLength) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(text)) this.entries.clear();
    this.entries.set(text, located);
  }

  get size(): number {
    return this.entries.size;
  }
}
