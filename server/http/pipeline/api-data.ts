// What a request is answered from: the tables process/load-data.ts loads (plain data), and
// what HTTP derives from them once per load (headers carrying the data version, the list
// ETag, the time-object renderer's templates). Replaced as a whole on reload.

import type { Manifest } from "../../formats/manifest.ts";
import type { GeoTable } from "../../geo/geo-locator.ts";
import type { IpTables } from "../../ip/ip-locator.ts";
import type { PlaceTable } from "../../places/place-table.ts";
import { TimeObjectRenderer } from "../../time-object/renderer.ts";
import type { ZoneTable } from "../../tz/zone-table.ts";
import type { NamesTable } from "../../names/names-table.ts";
import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import { ZoneNamer } from "../../names/zone-namer.ts";
import { AnswerCache } from "../caching/answer-cache.ts";
import { createMemos, MB, RELEASE_MEMO_SHARE, URL_KEY, type Memos, type MemoTallies } from "../caching/memos.ts";
import { Memo } from "../caching/memo.ts";
import { Responses } from "./responses.ts";
import type { RequestClock } from "./request-clock.ts";
import { HistoryBuilds } from "../time-machine/history-builds.ts";

/** generated/ as server/process/load-data.ts reads it: plain data, nothing of HTTP. */
export interface Tables {
  zones: ZoneTable;
  ip: IpTables;
  /** Latitude, longitude -> zones (generated/geo.bin, mapped read-only). */
  geo: GeoTable;
  /** CLDR names, zone.tab by country, the /timezone?q= index (generated/names.bin, mapped read-only). */
  names: NamesTable;
  /** Places by name (generated/places.bin, mapped read-only). */
  places: PlaceTable;
  /** null when the data folder has none (tables built by hand, in tests). */
  manifest: Manifest | null;
  /** Every tzdb release served, the default first (generated/tzdb-history.bin; `?tzdb=`). */
  history: TzdbHistory;
}

/** What a request is answered from: the tables, and what HTTP derives from them once per load. Replaced as a whole on reload. */
export interface ApiData extends Tables {
  responses: Responses;
  renderer: TimeObjectRenderer;
  /** Localized zone names at an instant, as ICU gives them (`?lang=`). */
  namer: ZoneNamer;
  /** Cacheable answers of this data version, encoded, with their ETags (answer-cache.ts). */
  answers: AnswerCache;
  /** The memo stores of this load (caching/memos.ts): a reload starts them empty. */
  memos: Memos;
  /** The same data answering from another release's zone table (`?tzdb=`, time-machine/with-tzdb.ts). */
  withZones: (zones: ZoneTable) => ApiData;
  /** The counts every older release's memo stores share, by store (caching/memos.ts, olderReleaseMemos). */
  releaseTallies: MemoTallies;
  /** `?tzdb=`: each release's data, made by withZones on first use and kept (time-machine/with-tzdb.ts). */
  releaseData: Memo<ApiData>;
  /** `?tzdb=`: a query naming a release -> that release's data and the query as its handler reads it (time-machine/with-tzdb.ts). */
  releaseQueries: Memo<{ data: ApiData; query: string }>;
  /** What walks release tables (what releases changed, the feeds), made on a thread of its own (time-machine/history-builds.ts). */
  historyBuilds: HistoryBuilds;
}

/** An older release's answer cache (`?tzdb=`): small, as there may be one per release served. */
const RELEASE_ANSWER_CACHE_BYTES = 256 * 1024;
/** What an older release's data may hold: its answer cache and its share of the memo stores' bounds (35 MB in all). */
const RELEASE_DATA_BYTES = RELEASE_ANSWER_CACHE_BYTES + Math.ceil(35 * MB * RELEASE_MEMO_SHARE);
/** 32 releases' data at once per worker (a key is a validated release name): the rest made again when asked. */
const RELEASE_DATA_BOUNDS = { maxEntries: 256, maxKeyLength: 16, maxBytes: 32 * RELEASE_DATA_BYTES };
const RELEASE_QUERY_BOUNDS = { maxEntries: 4096, maxKeyLength: URL_KEY, maxBytes: 2 * MB };

/** ANSWER_CACHE_BYTES's default: per worker process. */
export const DEFAULT_ANSWER_CACHE_BYTES = 4 * 1024 * 1024;
/** Bumped when an answer's bytes change for the same data (a format change): old ETags then stop matching. */
const ANSWER_FORMAT = 1;

/** HTTP Strict Transport Security for a year, on every HTTPS answer. */
const HSTS = "max-age=31536000; includeSubDomains";

/** The tables made ready to answer from: headers carrying their version, the list ETag, the renderer's templates. */
/** `previous`: the data this load replaces (a reload), whose memo counts go on. */
/** `clock`: the request clock whose reading dates every answer (request-clock.ts). */
/** `releaseTallies`: an older release's data, the counts its memo stores share with the other releases'. */
/** `historyBuilds`: an older release's data, the history thread of the data it is made from. */
export function apiData(tables: Tables, tls: boolean, clock: RequestClock, answerCacheBytes = DEFAULT_ANSWER_CACHE_BYTES, previous?: ApiData, releaseTallies?: MemoTallies, historyBuilds?: HistoryBuilds): ApiData {
  // The data version: the release, and what the build wrote (the manifest's checksums and build
  // time; without a manifest, the names), so that an ETag changes whenever an answer may.
  const built = tables.manifest === null ? tables.zones.names.join("\n") : JSON.stringify(tables.manifest);
  const fingerprint = Bun.hash(`${ANSWER_FORMAT}\n${built}`).toString(36);
  const extraHeaders: Record<string, string> = tls ? { "Strict-Transport-Security": HSTS } : {};
  const tallies: MemoTallies = releaseTallies ?? previous?.releaseTallies ?? new Map();
  const builds = historyBuilds ?? new HistoryBuilds(tables.history, previous?.historyBuilds);
  return {
    ...tables,
    responses: new Responses(tables.zones.tzdbVersion, extraHeaders, clock),
    renderer: new TimeObjectRenderer(tables.zones),
    namer: new ZoneNamer(tables.zones, tables.names),
    answers: new AnswerCache(answerCacheBytes, `tz-${tables.zones.tzdbVersion}-${fingerprint}`),
    memos: releaseTallies === undefined ? createMemos(previous?.memos) : createMemos(undefined, RELEASE_MEMO_SHARE, releaseTallies),
    withZones: (zones) => apiData({ ...tables, zones }, tls, clock, RELEASE_ANSWER_CACHE_BYTES, undefined, tallies, builds),
    releaseTallies: tallies,
    // Counted by the most its answer cache and memos may hold.
    releaseData: new Memo("tzdb_release_data", RELEASE_DATA_BOUNDS, () => RELEASE_DATA_BYTES, previous?.releaseData),
    releaseQueries: new Memo("tzdb_release_queries", RELEASE_QUERY_BOUNDS, (v) => 2 * v.query.length, previous?.releaseQueries),
    historyBuilds: builds,
  };
}
