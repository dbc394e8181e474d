// The memo stores of one data load (ApiData.memos), each a Memo (memo.ts) named for what it
// keeps. What each buys was measured in process (`bun scripts/bench/handler-cpu.ts`, CPU us
// per request, the store on and off in the same run; docs/benchmarks.md); a store that did
// not buy 3% on its route is not here.

import type { ResolvedName } from "../../tz/zone-table.ts";
import { Memo, type MemoBounds, type MemoStats, type MemoTally } from "./memo.ts";

/** Which cached answer a URL was given (cacheable-answer.ts). */
export interface AnswerKey {
  /** The answer cache's key of the answer. */
  key: string;
  /** The unix second the answer was named for, or null: the same at any time. */
  second: number | null;
  maxAge: number;
  /** The answer's content type when it is not the format's. */
  type: string | undefined;
}

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

/** A dialect's whole answer for a URL (dialects/kept-answers.ts). */
export interface DialectAnswer {
  body: Blob;
  /** Its headers, shared (pipeline/responses.ts dialectHeaders): a recalled answer looks nothing up again. */
  headers: Headers;
  /** The unix second the answer is about, or null: the query named its instant. */
  second: number | null;
  /** Accept-Language's languages in order of preference, as dialects/accept-language.ts keys them ("" for none); undefined: the answer did not read the header. */
  acceptLanguage: string | undefined;
}

/** `?lang=`'s `timezone_name` tails of a URL's time objects, one per zone it named, for the second they were made for (params/lang-param.ts). */
export interface TimezoneNameTails {
  second: number;
  names: readonly ResolvedName[];
  tails: readonly Uint8Array[];
}

export interface Memos {
  /** Request URL -> the cached answer it names (cacheable-answer.ts). */
  answerKeys: Memo<AnswerKey>;
  /** `/ip/{address}`'s parameter -> the address's zone (routes/time-objects.ts). */
  addresses: Memo<LocatedAddress>;
  /** `/coordinates/{point}`'s parameter -> the point's zones (routes/time-objects.ts). */
  points: Memo<LocatedPoint>;
  /** A timeapi.io URL -> the zone its query names (dialects/timeapi-io). */
  timeapiZones: Memo<ResolvedName>;
  /** `/clock`'s query -> the names it asks for (routes/world-clock.ts). */
  clockLists: Memo<readonly ResolvedName[]>;
  /** A TimeZoneDB or Google URL -> its answer, while it holds (dialects/kept-answers.ts). */
  dialectAnswers: Memo<DialectAnswer>;
  /** Request URL -> the `timezone_name` tails `?lang=` adds to its time objects (params/lang-param.ts). */
  timezoneNames: Memo<TimezoneNameTails>;
}

export const MB = 1024 * 1024;
/** What an older release's data gets of each memo store's bounds. */
export const RELEASE_MEMO_SHARE = 1 / 16;
/** No key of ours is a client's 8 KB of text: a longer URL is answered each time. */
export const URL_KEY = 256;
/** An IPv6 address with an IPv4 tail is at most 45 characters; a point with 20 decimals each, about 50. */
const PARAM_KEY = 64;

/** A URL's `?lang=` tails: their bytes, and a pointer per name. */
const tailsBytes = (v: TimezoneNameTails) => v.tails.reduce((sum, tail) => sum + tail.length + 64, 0) + 8 * v.names.length;

/** The stores' shared counts, by store name: every older release's stores count as one (olderReleaseMemos). */
export type MemoTallies = Map<string, MemoTally>;

/**
 * `previous`: the memos of the data this load replaces, whose counts go on. `share`: the part
 * of each store's bounds they get. An older release's data (`?tzdb=`, api-data.ts) has memos
 * of its own, and there are 238 releases: each gets RELEASE_MEMO_SHARE, and counts in the
 * `tallies` all older releases share.
 */
export function createMemos(previous?: Memos, share = 1, tallies?: MemoTallies): Memos {
  const bounds = (b: MemoBounds): MemoBounds => share === 1 ? b : { ...b, maxEntries: Math.max(16, Math.floor(b.maxEntries * share)), maxBytes: Math.floor(b.maxBytes * share) };
  const tallyOf = (name: string): MemoTally | undefined => {
    if (tallies === undefined) return undefined;
    let tally = tallies.get(name);
    if (tally === undefined) tallies.set(name, (tally = { hits: 0, misses: 0, evictions: 0 }));
    return tally;
  };
  return {
    answerKeys: new Memo("answer_keys", bounds({ maxEntries: 4096, maxKeyLength: URL_KEY, maxBytes: 2 * MB }), (v) => 2 * v.key.length, previous?.answerKeys, tallyOf("answer_keys")),
    addresses: new Memo("addresses", bounds({ maxEntries: 4096, maxKeyLength: PARAM_KEY, maxBytes: 1 * MB }), (v) => 2 * v.shown.length, previous?.addresses, tallyOf("addresses")),
    points: new Memo("points", bounds({ maxEntries: 4096, maxKeyLength: PARAM_KEY, maxBytes: 1 * MB }), (v) => 16 * v.others.length, previous?.points, tallyOf("points")),
    timeapiZones: new Memo("timeapi_zones", bounds({ maxEntries: 4096, maxKeyLength: URL_KEY, maxBytes: 2 * MB }), undefined, previous?.timeapiZones, tallyOf("timeapi_zones")),
    clockLists: new Memo("clock_lists", bounds({ maxEntries: 1024, maxKeyLength: URL_KEY, maxBytes: 2 * MB }), (v) => 8 * v.length, previous?.clockLists, tallyOf("clock_lists")),
    dialectAnswers: new Memo("dialect_answers", bounds({ maxEntries: 16_384, maxKeyLength: URL_KEY, maxBytes: 2 * MB }), (v) => v.body.size + 2 * (v.acceptLanguage?.length ?? 0) + 360, previous?.dialectAnswers, tallyOf("dialect_answers")),
    timezoneNames: new Memo("timezone_names", bounds({ maxEntries: 4096, maxKeyLength: URL_KEY, maxBytes: 1 * MB }), tailsBytes, previous?.timezoneNames, tallyOf("timezone_names")),
  };
}

/**
 * Every older release's stores as one per name (`older_releases_answer_keys`, ...): their
 * shared counts, and the entries and bytes of the releases' data kept now.
 */
export function olderReleaseMemos(tallies: MemoTallies, kept: Iterable<Memos>): { name: string; stats(): MemoStats }[] {
  const now = new Map<string, { entries: number; bytes: number }>();
  for (const memos of kept) {
    for (const memo of Object.values(memos)) {
      const sum = now.get(memo.name) ?? { entries: 0, bytes: 0 };
      const { entries, bytes } = memo.stats();
      now.set(memo.name, { entries: sum.entries + entries, bytes: sum.bytes + bytes });
    }
  }
  return [...tallies].map(([name, tally]) => ({
    name: `older_releases_${name}`,
    stats: () => ({ ...tally, entries: now.get(name)?.entries ?? 0, bytes: now.get(name)?.bytes ?? 0 }),
  }));
}
