// The time machine's routes (their rows are in routing/route-table.ts):
//
//   /tzdb                                      the releases served, the default first, and the gaps
//   /tzdb/{release}/changes?since=             every name that release changed (default: since the one before)
//   /timezone/{name}/changes?from=&to=&start=&end=   where two releases disagree about one name
//   /tzdb/feed.atom, /tzdb/feed.json           the releases as a feed
//   /timezone/{name}/feed.atom, feed.json      the releases that changed one name
//
// Every answer depends on the data alone (the release changes also on the day, which orders
// future changes first): cacheable, with ETags, as every answer from the tables is. A route
// checks its request here; what walks release tables is made on the history thread
// (history-builds.ts), so that no such build holds the thread that serves requests.

import { MAX_SECONDS, MIN_SECONDS } from "../params/at-param.ts";
import { ALWAYS, cacheableAnswer } from "../caching/cacheable-answer.ts";
import { cacheableAnswerLater } from "../caching/answer-later.ts";
import { nameParam } from "../params/zone-name.ts";
import { badRequest, notFound } from "../pipeline/http-errors.ts";
import { safeDecode } from "../pipeline/request-target.ts";
import type { RouteRequest } from "../contract.ts";
import { instantParam } from "../params/at-param.ts";
import { DEFAULT_END, DEFAULT_START } from "./changes-answer.ts";
import { ATOM_TYPE, JSON_FEED_TYPE } from "./feeds.ts";
import type { FeedFormat } from "./history-answers.ts";
import { releaseParam, servedRelease } from "./release-param.ts";
import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import { formatUtc } from "../routes/transitions-answer.ts";

const DAY = 86400;
const FEED_TYPES: Record<FeedFormat, string> = { atom: ATOM_TYPE, json: JSON_FEED_TYPE };
/** A `changes` range's walk: about 9 time objects of CPU per 400 years (answer-prices.ts), so at most 10 per token. */
const YEARS_PER_TOKEN = 400 * 365.2425 * DAY;

/** `/tzdb` */
export function tzdbIndex(request: RouteRequest): Response {
  const { history } = request.data;
  return cacheableAnswer(request, "tzdb-index", DAY, () => JSON.stringify({
    default: history.defaultRelease,
    releases: history.releases.map((r) => ({
      release: r.release, date: r.date, names: r.names, summary: r.summary, changes: `/tzdb/${r.release}/changes`,
    })),
    gaps: history.gaps,
    feeds: { atom: "/tzdb/feed.atom", json: "/tzdb/feed.json" },
  }), undefined, ALWAYS);
}

/** Whether release `a` is older than release `b` (the list is newest first). */
function isOlder(history: TzdbHistory, a: string, b: string): boolean {
  return history.releases.findIndex((r) => r.release === a) > history.releases.findIndex((r) => r.release === b);
}

/** `start` and `end` (the `at` syntax), default 1800 through 2100; `end` after `start`. */
function range(request: RouteRequest): { start: number; end: number } {
  const start = instantParam(request, "start")?.seconds ?? DEFAULT_START;
  const end = instantParam(request, "end")?.seconds ?? DEFAULT_END;
  if (end <= start) throw badRequest("bad_window", "invalid end: must be after start");
  return { start: Math.max(start, MIN_SECONDS), end: Math.min(end, MAX_SECONDS) };
}

/**
 * A pair not yet worked out is charged up front (its answer is made on the history thread:
 * the charge must land before the same client's next request is admitted): PAIR_TOKENS,
 * and a token per name it walks. Measured (answer-prices.ts): a far pair walks 475 names
 * for 2,505 time objects (5.3 per name), a consecutive pair 7 names for 88 (the tables, the answer).
 */
const PAIR_TOKENS = 10;

/** `/tzdb/{release}/changes` */
export function releaseChangesRoute(request: RouteRequest): Response | Promise<Response> {
  const { history, historyBuilds } = request.data;
  const release = servedRelease(history, safeDecode(request.params[0]!) ?? "", "release");
  const since = releaseParam(request, "since") ?? history.previous(release);
  if (since !== null && !isOlder(history, since, release)) {
    throw badRequest("bad_since", `invalid since: ${since} is not a release before ${release}`);
  }
  const now = request.clock().seconds;
  // Names whose windows reach past now come first: the key names the day.
  const key = `tzdb-changes|${request.profile}|${release}|${since}|${Math.floor(now / DAY)}`;
  if (since !== null && !historyBuilds.knowsPair(since, release)) {
    request.cost = Math.max(request.cost, PAIR_TOKENS + history.namesDiffering(since, release).length);
  }
  return cacheableAnswerLater(request, key, 3600, () => historyBuilds.build({ kind: "release_changes", release, since, now, profile: request.profile }));
}

/** `/timezone/{name*}/changes` */
export function nameChanges(request: RouteRequest): Response | Promise<Response> {
  const { history } = request.data;
  const to = releaseParam(request, "to") ?? history.defaultRelease;
  const from = releaseParam(request, "from") ?? history.previous(to);
  if (from === null) throw badRequest("missing_parameter", `missing from: ${to} is the oldest release served`);
  if (isOlder(history, to, from)) throw badRequest("bad_from", `invalid from: ${from} is after to (${to})`);
  const { start, end } = range(request);
  const raw = nameParam(request.params[0]!);
  const inFrom = history.spelling(raw, from);
  const name = history.spelling(raw, to);
  if (inFrom === undefined || name === undefined) throw notFound("unknown_location", `unknown location in tzdb ${inFrom === undefined ? from : to}`);
  const key = `tzdb-name-changes|${request.profile}|${name}|${from}|${to}|${start}|${end}`;
  const job = { kind: "name_changes", name, from, to, start, end, profile: request.profile } as const;
  const answer = cacheableAnswerLater(request, key, DAY, () => request.data.historyBuilds.build(job), undefined, ALWAYS);
  // Its build walks both releases' periods over the whole range, whatever the answer's size:
  // 0001-9999 cost about 90 time objects for a 2 KB answer (answer-prices.ts), so a range
  // is charged a token per 400 years too (a 304 stays 1).
  if (answer instanceof Promise || answer.status === 200) request.cost = Math.max(request.cost, Math.ceil((end - start) / YEARS_PER_TOKEN));
  return answer;
}

const builtAt = (request: RouteRequest) => Math.floor(Date.parse(request.data.zones.builtAt) / 1000) || 0;

// The releases feed walks every consecutive pair (300-1,700 ms on a fresh worker's history
// thread): once per worker for every reader (the pairs are kept on the history thread, the
// feed in the answer cache), so its price is its body's, as for any kept answer.
function releasesFeed(request: RouteRequest, format: FeedFormat): Response | Promise<Response> {
  return cacheableAnswerLater(request, `tzdb-feed|${format}`, 3600, () => request.data.historyBuilds.build({ kind: "releases_feed", format, builtAt: builtAt(request) }), FEED_TYPES[format], ALWAYS);
}

export const tzdbFeedAtom = (request: RouteRequest) => releasesFeed(request, "atom");
export const tzdbFeedJson = (request: RouteRequest) => releasesFeed(request, "json");

/** One name's feed: the name as the newest release that has it spells it; 404 when no release served has it. */
function nameFeed(request: RouteRequest, format: FeedFormat): Response | Promise<Response> {
  const name = request.data.history.spelling(nameParam(request.params[0]!));
  if (name === undefined) throw notFound("unknown_location", "unknown location in every tzdb release served");
  return cacheableAnswerLater(request, `tzdb-name-feed|${format}|${name}`, 3600, () => request.data.historyBuilds.build({ kind: "name_feed", format, name, builtAt: builtAt(request) }), FEED_TYPES[format], ALWAYS);
}

export const nameFeedAtom = (request: RouteRequest) => nameFeed(request, "atom");
export const nameFeedJson = (request: RouteRequest) => nameFeed(request, "json");
