// /metrics in the Prometheus text format (version 0.0.4): requests by route and status,
// a latency histogram by route, how long the turns of long builds held a worker, memo
// stores' counts, and gauges for the data versions and workers. Counting
// is a few array increments per request.
//
// A scrape reaches one worker (the kernel picks it), yet must describe the whole
// instance: that worker asks the supervisor, which collects every worker's counts at that
// moment, as prom-client's cluster aggregator does (server/ops/metrics-exchange.ts).
// Only zonetime_data_info and zonetime_uptime_seconds describe the answering worker
// (label `worker`).
//
// The route labels are the HTTP route table's (server/http/routing/route-table.ts), given to the
// constructor; a request is counted under its label's index.

import { droppedLogLines } from "../core/log.ts";
import { buildTurns, TURN_BUCKETS } from "../core/in-turns.ts";

/** The shared store's states (http/shared-rate-limiter.ts's StoreState), each a series of zonetime_rate_store_state. */
const RATE_STORE_STATES = ["up", "slow", "down", "connecting"] as const;

const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1];

/** A worker's counts, as plain data that can cross a process boundary and be summed. */
export interface MetricsSnapshot {
  /** [status, count per route] */
  counts: [number, number[]][];
  /** Per route, the count per latency bucket (the last one is +Inf). */
  buckets: number[][];
  sums: number[];
  rateLimited: number;
  /** RATE_LIMIT_STORE: requests decided by the instance's own limiter because Redis could not answer in time, the outages, the attempts to connect. */
  rateStore: { fallbacks: number; outages: number; connectAttempts: number };
  /** RATE_LIMIT_STORE: workers by the state of their store (`up`: 1 for a worker whose store is up); empty without a store. */
  rateStoreStates: Record<string, number>;
  reloads: { ok: number; failed: number };
  /** Log lines the process could not write (see log.ts). */
  logLinesDropped: number;
  /** Times a worker's serving clock diverged from the system clock (ops/clock-check.ts). */
  clockDivergences: number;
  /** Each memo store's counts, by name (http/caching/memo.ts); absent in a snapshot from before they were counted. */
  memos?: Record<string, MemoCounts>;
  /** The turns of the builds made in turns (core/in-turns.ts), by length bucket, and their sum in seconds. */
  buildTurns?: { counts: number[]; seconds: number };
}

/** What a memo store reports: hits, misses and evictions since start, entries and bytes now. */
export interface MemoCounts {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  bytes: number;
}

/** A memo store as metrics sees it (http/caching/memo.ts's Memo is one). */
export interface MemoReport {
  readonly name: string;
  stats(): MemoCounts;
}

/** Zero counts for `routes` routes (0: the identity of sumSnapshots, which sizes by its inputs). */
export function emptySnapshot(routes: number): MetricsSnapshot {
  return {
    counts: [],
    buckets: Array.from({ length: routes }, () => new Array<number>(BUCKETS.length + 1).fill(0)),
    sums: new Array<number>(routes).fill(0),
    rateLimited: 0,
    rateStore: { fallbacks: 0, outages: 0, connectAttempts: 0 },
    rateStoreStates: {},
    reloads: { ok: 0, failed: 0 },
    logLinesDropped: 0,
    clockDivergences: 0,
    memos: {},
    buildTurns: { counts: new Array<number>(TURN_BUCKETS.length + 1).fill(0), seconds: 0 },
  };
}

export function sumSnapshots(snapshots: readonly MetricsSnapshot[]): MetricsSnapshot {
  const routes = Math.max(0, ...snapshots.map((s) => s.buckets.length));
  const total = emptySnapshot(routes);
  const counts = new Map<number, number[]>();
  for (const s of snapshots) {
    for (const [status, row] of s.counts) {
      let into = counts.get(status);
      if (into === undefined) counts.set(status, (into = new Array<number>(routes).fill(0)));
      row.forEach((n, r) => (into![r]! += n));
    }
    s.buckets.forEach((row, r) => row.forEach((n, i) => (total.buckets[r]![i]! += n)));
    s.sums.forEach((x, r) => (total.sums[r]! += x));
    total.rateLimited += s.rateLimited;
    total.rateStore.fallbacks += s.rateStore?.fallbacks ?? 0;
    total.rateStore.outages += s.rateStore?.outages ?? 0;
    total.rateStore.connectAttempts += s.rateStore?.connectAttempts ?? 0;
    for (const [state, n] of Object.entries(s.rateStoreStates ?? {})) total.rateStoreStates[state] = (total.rateStoreStates[state] ?? 0) + n;
    total.reloads.ok += s.reloads.ok;
    total.reloads.failed += s.reloads.failed;
    total.logLinesDropped += s.logLinesDropped;
    total.clockDivergences += s.clockDivergences;
    if (s.buildTurns !== undefined) {
      s.buildTurns.counts.forEach((n, i) => (total.buildTurns!.counts[i]! += n));
      total.buildTurns!.seconds += s.buildTurns.seconds;
    }
    for (const [name, m] of Object.entries(s.memos ?? {})) {
      const into = (total.memos![name] ??= { hits: 0, misses: 0, evictions: 0, entries: 0, bytes: 0 });
      into.hits += m.hits;
      into.misses += m.misses;
      into.evictions += m.evictions;
      into.entries += m.entries;
      into.bytes += m.bytes;
    }
  }
  total.counts = [...counts];
  return total;
}

export class Metrics {
  private readonly routes: readonly string[];
  private readonly counts = new Map<number, number[]>(); // status -> count per route
  private readonly buckets: number[][];
  private readonly sums: number[];
  rateLimited = 0;
  readonly rateStore = { fallbacks: 0, outages: 0, connectAttempts: 0 };
  /** The shared store's state now (RATE_LIMIT_STORE), set by whoever made the store; null without one. */
  rateStoreState: (() => string) | null = null;
  reloads = { ok: 0, failed: 0 };
  clockDivergences = 0;
  /** Where the memo stores are found at each snapshot (the data's are replaced on reload). */
  readonly memoSources: (() => Iterable<MemoReport>)[] = [];

  /** `routes`: the route labels; observe() takes an index into them. */
  constructor(routes: readonly string[]) {
    this.routes = routes;
    const empty = emptySnapshot(routes.length);
    this.buckets = empty.buckets;
    this.sums = empty.sums;
  }

  observe(route: number, status: number, seconds: number): void {
    let row = this.counts.get(status);
    if (row === undefined) this.counts.set(status, (row = new Array<number>(this.routes.length).fill(0)));
    row[route]!++;
    const b = this.buckets[route]!;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    b[i]!++;
    this.sums[route]! += seconds;
  }

  /** This worker's own counts, copied. */
  snapshot(): MetricsSnapshot {
    return {
      counts: [...this.counts].map(([status, row]) => [status, [...row]]),
      buckets: this.buckets.map((row) => [...row]),
      sums: [...this.sums],
      rateLimited: this.rateLimited,
      rateStore: { ...this.rateStore },
      rateStoreStates: this.rateStoreState === null ? {} : { [this.rateStoreState()]: 1 },
      reloads: { ...this.reloads },
      logLinesDropped: droppedLogLines(),
      clockDivergences: this.clockDivergences,
      memos: this.memoCounts(),
      buildTurns: buildTurns(),
    };
  }

  private memoCounts(): Record<string, MemoCounts> {
    const out: Record<string, MemoCounts> = {};
    for (const source of this.memoSources) for (const memo of source()) out[memo.name] = memo.stats();
    return out;
  }

  /** `total`: the instance's counts (a supervisor's workers), by default this process's own. */
  render(labels: { worker: string; workers: number; tzdb: string; ipSource: string; ipDate: string; uptimeSeconds: number }, total = this.snapshot()): string {
    const w = `worker="${escapeLabel(labels.worker)}"`;
    const lines: string[] = [];
    lines.push("# HELP zonetime_requests_total HTTP requests answered by all workers, by route and status (with RATE_LIMIT and ACCESS_LOG off, not the GETs of constant answers, which Bun sends natively).");
    lines.push("# TYPE zonetime_requests_total counter");
    for (const [status, row] of [...total.counts].sort((a, b) => a[0] - b[0])) {
      row.forEach((n, r) => {
        if (n > 0) lines.push(`zonetime_requests_total{route="${this.routes[r]}",status="${status}"} ${n}`);
      });
    }
    lines.push("# HELP zonetime_request_duration_seconds Time to produce a response, by route.");
    lines.push("# TYPE zonetime_request_duration_seconds histogram");
    this.routes.forEach((route, r) => {
      const b = total.buckets[r]!;
      const count = b.reduce((x, y) => x + y, 0);
      if (count === 0) return;
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += b[i]!;
        lines.push(`zonetime_request_duration_seconds_bucket{route="${route}",le="${le}"} ${cumulative}`);
      });
      lines.push(`zonetime_request_duration_seconds_bucket{route="${route}",le="+Inf"} ${count}`);
      lines.push(`zonetime_request_duration_seconds_sum{route="${route}"} ${total.sums[r]!.toFixed(6)}`);
      lines.push(`zonetime_request_duration_seconds_count{route="${route}"} ${count}`);
    });
    const turns = total.buildTurns ?? emptySnapshot(0).buildTurns!;
    lines.push("# HELP zonetime_build_turn_seconds How long each turn of a long build held a worker (the answers made in turns: what a release or a name changed, the feeds, device lists); a turn ends after 2 ms of work.");
    lines.push("# TYPE zonetime_build_turn_seconds histogram");
    let cumulative = 0;
    TURN_BUCKETS.forEach((le, i) => {
      cumulative += turns.counts[i]!;
      lines.push(`zonetime_build_turn_seconds_bucket{le="${le}"} ${cumulative}`);
    });
    const turnCount = cumulative + turns.counts[TURN_BUCKETS.length]!;
    lines.push(`zonetime_build_turn_seconds_bucket{le="+Inf"} ${turnCount}`);
    lines.push(`zonetime_build_turn_seconds_sum ${turns.seconds.toFixed(6)}`);
    lines.push(`zonetime_build_turn_seconds_count ${turnCount}`);
    const memos = Object.entries(total.memos ?? {}).sort(([a], [b]) => a.localeCompare(b));
    for (const [metric, type, help, read] of [
      ["zonetime_memo_hits_total", "counter", "Lookups a memo store answered, by store (http/caching/memos.ts).", (m: MemoCounts) => m.hits],
      ["zonetime_memo_misses_total", "counter", "Lookups a memo store could not answer (absent, or no longer holding), by store.", (m: MemoCounts) => m.misses],
      ["zonetime_memo_evictions_total", "counter", "Entries a memo store dropped to stay within its bounds (or on a reload), by store.", (m: MemoCounts) => m.evictions],
      ["zonetime_memo_entries", "gauge", "Entries a memo store holds, summed over workers.", (m: MemoCounts) => m.entries],
      ["zonetime_memo_bytes", "gauge", "Bytes a memo store holds by its own estimate (keys, values, per-entry overhead), summed over workers.", (m: MemoCounts) => m.bytes],
    ] as const) {
      lines.push(`# HELP ${metric} ${help}`);
      lines.push(`# TYPE ${metric} ${type}`);
      for (const [name, m] of memos) lines.push(`${metric}{memo="${escapeLabel(name)}"} ${read(m)}`);
    }
    lines.push("# HELP zonetime_rate_limited_total Requests refused with 429.");
    lines.push("# TYPE zonetime_rate_limited_total counter");
    lines.push(`zonetime_rate_limited_total ${total.rateLimited}`);
    lines.push("# HELP zonetime_rate_store_fallbacks_total Limited requests decided by the instance's own limiter because the shared store (RATE_LIMIT_STORE) was down or slow.");
    lines.push("# TYPE zonetime_rate_store_fallbacks_total counter");
    lines.push(`zonetime_rate_store_fallbacks_total ${total.rateStore.fallbacks}`);
    lines.push("# HELP zonetime_rate_store_outages_total Times a worker lost the shared store (each logged once, as rate_store_unavailable).");
    lines.push("# TYPE zonetime_rate_store_outages_total counter");
    lines.push(`zonetime_rate_store_outages_total ${total.rateStore.outages}`);
    lines.push("# HELP zonetime_rate_store_connect_attempts_total Attempts to connect to the shared store, the first included (capped, jittered backoff: at most about one per second per worker while it is down).");
    lines.push("# TYPE zonetime_rate_store_connect_attempts_total counter");
    lines.push(`zonetime_rate_store_connect_attempts_total ${total.rateStore.connectAttempts}`);
    // Every state written, 0 where no worker is in it, so that an alert on up == 0 or down > 0 always has a series.
    if (Object.keys(total.rateStoreStates).length > 0) {
      lines.push("# HELP zonetime_rate_store_state Workers whose shared store (RATE_LIMIT_STORE) is in each state: up, slow (answers too late), down (connection lost), connecting (never connected yet).");
      lines.push("# TYPE zonetime_rate_store_state gauge");
      for (const state of RATE_STORE_STATES) lines.push(`zonetime_rate_store_state{state="${state}"} ${total.rateStoreStates[state] ?? 0}`);
    }
    lines.push("# HELP zonetime_reloads_total Reloads on SIGHUP (the tables and the website), by result, summed over workers.");
    lines.push("# TYPE zonetime_reloads_total counter");
    lines.push(`zonetime_reloads_total{result="ok"} ${total.reloads.ok}`);
    lines.push(`zonetime_reloads_total{result="failed"} ${total.reloads.failed}`);
    lines.push("# HELP zonetime_log_lines_dropped_total Log lines not written because the reader of stdout/stderr fell behind or went away.");
    lines.push("# TYPE zonetime_log_lines_dropped_total counter");
    lines.push(`zonetime_log_lines_dropped_total ${total.logLinesDropped}`);
    lines.push("# HELP zonetime_data_info The data versions the answering worker serves.");
    lines.push("# TYPE zonetime_data_info gauge");
    // The versions come from the manifest, a file: escaped, so that no value can add a line.
    lines.push(`zonetime_data_info{${w},tzdb="${escapeLabel(labels.tzdb)}",ip_source="${escapeLabel(labels.ipSource)}",ip_date="${escapeLabel(labels.ipDate)}"} 1`);
    lines.push("# HELP zonetime_workers Worker processes configured.");
    lines.push("# TYPE zonetime_workers gauge");
    lines.push(`zonetime_workers ${labels.workers}`);
    lines.push("# HELP zonetime_clock_divergences_total Times a worker's serving clock left the system clock by more than the bound (that worker is then not ready).");
    lines.push("# TYPE zonetime_clock_divergences_total counter");
    lines.push(`zonetime_clock_divergences_total ${total.clockDivergences}`);
    lines.push("# HELP zonetime_uptime_seconds Seconds since the answering worker started.");
    lines.push("# TYPE zonetime_uptime_seconds gauge");
    lines.push(`zonetime_uptime_seconds{${w}} ${labels.uptimeSeconds}`);
    return `${lines.join("\n")}\n`;
  }
}

/** A label value as the text format (0.0.4) writes it: `\\`, `\"` and `\n` escaped. */
export function escapeLabel(value: unknown): string {
  return String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
