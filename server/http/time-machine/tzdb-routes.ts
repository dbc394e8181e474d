// The time machine's routes (their rows are in routes.ts):
//
//   /tzdb                                      the releases served, the default first, and the gaps
//   /tzdb/{release}/changes?since=             every name that release changed (default: since the one before)
//   /timezone/{name}/changes?from=&to=&start=&end=   where two releases disagree about one name
//   /tzdb/feed.atom, /tzdb/feed.json           the releases as a feed
//   /timezone/{name}/feed.atom, feed.json      the releases that changed one name
//
// Every answer depends on the data alone (the release changes also on the day, which orders
// future changes first): cacheable, with ETags, as every answer from the tables is.

import { MAX_SECONDS, MIN_SECONDS } from "../params/at-param.ts";
import { ALWAYS, cacheableAnswer } from "../caching/cacheable-answer.ts";
import { nameParam } from "../params/zone-name.ts";
import { badRequest, notFound } from "../pipeline/http-errors.ts";
import { safeDecode } from "../pipeline/request-target.ts";
import type { RouteRequest } from "../contract.ts";
import { instantParam } from "../params/at-param.ts";
import { DEFAULT_END, DEFAULT_START, knownChanges, MAX_WINDOWS, nameWindowSteps, releaseChangeSteps, windowsJson } from "./changes-answer.ts";
import { cacheableAnswerInTurns } from "../caching/answer-in-turns.ts";
import { inTurns, type Steps } from "../../core/in-turns.ts";
import { atom, ATOM_TYPE, jsonFeed, JSON_FEED_TYPE, nameFeed, releasesFeed } from "./feeds.ts";
import { releaseParam, servedRelease } from "./release-param.ts";
import type { TzdbHistory } from "../../tz/tzdb-history.ts";
import { formatUtc } from "../routes/transitions-answer.ts";
import type { Profile } from "../../time-object/time-object.ts";
import type { Memo } from "../caching/memo.ts";
import type { ReleaseChanges } from "./changes-answer.ts";

const DAY = 86400;
const encoder = new TextEncoder();
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
 * A pair not yet worked out is charged up front (its answer is made in turns: the charge
 * must land before the same client's next request is admitted): PAIR_TOKENS, and a token
 * per name it walks. Measured (answer-prices.ts): a far pair walks 475 names for 2,505 time
 * objects (5.3 per name), a consecutive pair 7 names for 88 (the tables, the answer).
 */
const PAIR_TOKENS = 10;

/** `/tzdb/{release}/changes` */
export function releaseChangesRoute(request: RouteRequest): Response | Promise<Response> {
  const { history } = request.data;
  const release = servedRelease(history, safeDecode(request.params[0]!) ?? "", "release");
  const since = releaseParam(request, "since") ?? history.previous(release);
  if (since !== null && !isOlder(history, since, release)) {
    throw badRequest("bad_since", `invalid since: ${since} is not a release before ${release}`);
  }
  const now = request.clock().seconds;
  // Names whose windows reach past now come first: the key names the day.
  const key = `tzdb-changes|${request.profile}|${release}|${since}|${Math.floor(now / DAY)}`;
  const memo = request.data.memos.releaseChanges;
  if (since !== null && knownChanges(memo, since, release) === undefined) {
    request.cost = Math.max(request.cost, PAIR_TOKENS + history.namesDiffering(since, release).length);
  }
  return cacheableAnswerInTurns(request, key, 3600, () => inTurns(releaseChangesBody(history, release, since, now, request.profile, memo)));
}

function* releaseChangesBody(history: TzdbHistory, release: string, since: string | null, now: number, profile: Profile, memo: Memo<ReleaseChanges>): Steps<Blob> {
  const meta = history.meta(release)!;
  const changes = since === null ? { added: [], removed: [], changed: [] } : yield* releaseChangeSteps(history, since, release, DEFAULT_START, DEFAULT_END, memo);
  const order = changes.changed.map((c) => ({ change: c, future: c.windows.some((w) => w.end > now) }));
  order.sort((a, b) => (a.future === b.future ? (a.change.name < b.change.name ? -1 : 1) : a.future ? -1 : 1));
  const head = JSON.stringify({
    release, since, date: meta.date, summary: meta.summary,
    range: { start: formatUtc(DEFAULT_START, profile), end: formatUtc(DEFAULT_END, profile) },
    added: changes.added, removed: changes.removed,
  });
  // A far pair's answer is 8 MB of windows: each name's entry written and encoded as a step,
  // the body a Blob of the parts (one string of it took 25 ms to join and encode).
  const parts: (string | Uint8Array)[] = [`${head.slice(0, -1)},"changed":[`];
  for (const { change, future } of order) {
    yield;
    if (parts.length > 1) parts.push(",");
    parts.push(encoder.encode(`{"timezone":${JSON.stringify(change.name)},"future":${future},"windows":${windowsJson(change.windows.slice(0, MAX_WINDOWS), profile)}}`));
  }
  parts.push(`],${JSON.stringify({ news: meta.news }).slice(1)}`);
  return new Blob(parts);
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
  const inFrom = history.table(from)!.resolve(raw);
  const inTo = history.table(to)!.resolve(raw);
  if (!inFrom || !inTo) throw notFound("unknown_location", `unknown location in tzdb ${!inFrom ? from : to}`);
  const name = inTo.name;
  const key = `tzdb-name-changes|${request.profile}|${name}|${from}|${to}|${start}|${end}`;
  const answer = cacheableAnswerInTurns(request, key, DAY, () => inTurns(nameChangesBody(history, from, to, name, start, end, request.profile)), undefined, ALWAYS);
  // Its build walks both releases' periods over the whole range, whatever the answer's size:
  // 0001-9999 cost about 90 time objects for a 2 KB answer (answer-prices.ts), so a range
  // is charged a token per 400 years too (a 304 stays 1).
  if (answer instanceof Promise || answer.status === 200) request.cost = Math.max(request.cost, Math.ceil((end - start) / YEARS_PER_TOKEN));
  return answer;
}

function* nameChangesBody(history: TzdbHistory, from: string, to: string, name: string, start: number, end: number, profile: Profile): Steps<string> {
  const windows = yield* nameWindowSteps(history, from, to, name, start, end);
  const head = JSON.stringify({ timezone: name, from, to, start: formatUtc(start, profile), end: formatUtc(end, profile) });
  const nextStart = windows.length > MAX_WINDOWS ? formatUtc(windows[MAX_WINDOWS]!.start, profile) : null;
  return `${head.slice(0, -1)},"windows":${windowsJson(windows.slice(0, MAX_WINDOWS), profile)},"next_start":${JSON.stringify(nextStart)}}`;
}

const builtAt = (request: RouteRequest) => Math.floor(Date.parse(request.data.zones.builtAt) / 1000) || 0;

// The releases feed walks every consecutive pair (300-470 ms on a fresh worker): in turns,
// once per worker for every reader (the pairs are kept in release_changes, the feed in the
// answer cache), so its price is its body's, as for any kept answer.
export const tzdbFeedAtom = (request: RouteRequest) => cacheableAnswerInTurns(request, "tzdb-feed|atom", 3600,
  async () => atom(await inTurns(releasesFeed(request.data.history, builtAt(request), request.data.memos.releaseChanges))), ATOM_TYPE, ALWAYS);

export const tzdbFeedJson = (request: RouteRequest) => cacheableAnswerInTurns(request, "tzdb-feed|json", 3600,
  async () => jsonFeed(await inTurns(releasesFeed(request.data.history, builtAt(request), request.data.memos.releaseChanges))), JSON_FEED_TYPE, ALWAYS);

/** The name as the newest release that has it spells it; 404 when no release served has it. */
function anyReleaseName(history: TzdbHistory, raw: string): string {
  for (const meta of history.releases) {
    const resolved = history.table(meta.release)!.resolve(raw);
    if (resolved) return resolved.name;
  }
  throw notFound("unknown_location", "unknown location in every tzdb release served");
}

export function nameFeedAtom(request: RouteRequest): Response | Promise<Response> {
  const name = anyReleaseName(request.data.history, nameParam(request.params[0]!));
  return cacheableAnswerInTurns(request, `tzdb-name-feed|atom|${name}`, 3600, async () => atom(await inTurns(nameFeed(request.data.history, name, builtAt(request)))), ATOM_TYPE, ALWAYS);
}

export function nameFeedJson(request: RouteRequest): Response | Promise<Response> {
  const name = anyReleaseName(request.data.history, nameParam(request.params[0]!));
  return cacheableAnswerInTurns(request, `tzdb-name-feed|json|${name}`, 3600, async () => jsonFeed(await inTurns(nameFeed(request.data.history, name, builtAt(request)))), JSON_FEED_TYPE, ALWAYS);
}
