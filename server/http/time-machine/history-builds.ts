// The serving thread's side of the history thread (history-thread.ts): it hands a job over
// and gets the answer's body back, a Blob, which crosses without a copy. The thread starts
// with the first job (a worker nobody asks about history never holds one), starts again
// after a failure, and ends when a reload replaces the data it reads.
//
// It also reports what the thread keeps: the pairs of releases already worked out (a
// pair's price depends on it, tzdb-routes.ts) and that store's counts, for /metrics.

import type { TableBytes, TzdbHistory } from "../../tz/tzdb-history.ts";
import { addressOf } from "../../core/mapped-memory.ts";
import type { MemoStats } from "../caching/memo.ts";
import { changesKey } from "./changes-answer.ts";
import type { HistoryJob } from "./history-answers.ts";

/** Where the tables the thread reads are, in this process: the thread's first message. */
export interface HistoryStart {
  history: { address: number; length: number; file: string };
  zones: { address: number; length: number; file: string };
}

/** A job as the serving thread posts it. */
export interface HistoryRequest {
  id: number;
  job: HistoryJob;
}

/** The thread's answer to one job: the body or why it failed, its store's counts, and the pairs kept when they changed. */
export interface HistoryReply {
  id: number;
  body?: Blob;
  error?: string;
  memo: MemoStats;
  pairs?: string[];
}

interface Waiting {
  resolve(body: Blob): void;
  reject(error: Error): void;
}

/** The tables a thread is copying, kept alive until it has (or has ended), whatever becomes of their builds. */
const lent = new Set<{ history: TableBytes; zones: TableBytes }>();

const NONE: MemoStats = { hits: 0, misses: 0, evictions: 0, entries: 0, bytes: 0 };

export class HistoryBuilds {
  /** What /metrics calls the thread's store of pairs worked out. */
  readonly name = "release_changes";
  private thread: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  /** The pairs the thread keeps (changesKey), as it last said. */
  private pairs = new Set<string>();
  /** Its store's counts, as it last said; and those of threads before it (a failure, a reload), so the counters never go down. */
  private memo: MemoStats = NONE;
  private before: MemoStats;
  private retired = false;

  /** `previous`: the builds of the data this load replaces, whose counts go on (it is retired). */
  constructor(private readonly history: TzdbHistory, previous?: HistoryBuilds) {
    this.before = previous === undefined ? NONE : previous.carried();
    previous?.retire();
  }

  /** The body of `job`'s answer, made on the history thread. */
  build(job: HistoryJob): Promise<Blob> {
    const thread = this.thread ?? this.start();
    const id = this.nextId++;
    return new Promise<Blob>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      thread.postMessage({ id, job } satisfies HistoryRequest);
    });
  }

  /** Whether the thread has worked out (and keeps) what changed from `since` to `release` over the default range. */
  knowsPair(since: string, release: string): boolean {
    return this.pairs.has(changesKey(since, release));
  }

  /** The thread's store of pairs, counted as every memo store is. */
  stats(): MemoStats {
    const { hits, misses, evictions, entries, bytes } = this.memo;
    return { hits: this.before.hits + hits, misses: this.before.misses + misses, evictions: this.before.evictions + evictions, entries, bytes };
  }

  /** Ends the thread once it has answered what it was asked: the data it reads is replaced. */
  retire(): void {
    this.retired = true;
    if (this.waiting.size === 0) this.stop();
  }

  /** The counts to go on with when this store is dropped: what it held counts as evicted. */
  private carried(): MemoStats {
    const s = this.stats();
    return { hits: s.hits, misses: s.misses, evictions: s.evictions + s.entries, entries: 0, bytes: 0 };
  }

  private start(): Worker {
    const bytes = this.history.bytes;
    if (bytes === null) throw new Error("a tzdb history made without its bytes cannot be read by the history thread");
    const thread = new Worker(new URL("./history-thread.ts", import.meta.url).href);
    thread.unref(); // a process with nothing else to do may exit: requests waiting on it keep their server up
    thread.onmessage = (e: MessageEvent<HistoryReply | "copied">) => this.answered(e.data);
    thread.onerror = (e: ErrorEvent) => this.failed(thread, new Error(`history thread: ${e.message}`));
    thread.addEventListener("close", () => {
      lent.delete(bytes); // it reads them no more
      this.failed(thread, new Error("history thread ended"));
    });
    // The thread copies the tables itself (core/mapped-memory.ts, copyOf), while this one keeps
    // them alive: cloned by postMessage, they held this thread 6-8 ms; copied here, 3 ms.
    lent.add(bytes);
    const where = ({ buffer, file }: TableBytes) => ({ address: addressOf(buffer), length: buffer.byteLength, file });
    thread.postMessage({ history: where(bytes.history), zones: where(bytes.zones) } satisfies HistoryStart);
    this.thread = thread;
    return thread;
  }

  private answered(reply: HistoryReply | "copied"): void {
    if (reply === "copied") {
      lent.delete(this.history.bytes!);
      return;
    }
    this.memo = reply.memo;
    if (reply.pairs !== undefined) this.pairs = new Set(reply.pairs);
    const waiting = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (reply.body !== undefined) waiting?.resolve(reply.body);
    else waiting?.reject(new Error(reply.error));
    if (this.retired && this.waiting.size === 0) this.stop();
  }

  /** The thread failed or ended: every job it held fails (a 500 each), and the next starts a new one. */
  private failed(thread: Worker, error: Error): void {
    if (this.thread !== thread) return;
    this.stop();
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }

  private stop(): void {
    const thread = this.thread;
    if (thread === null) return;
    this.thread = null;
    this.before = this.carried();
    this.memo = NONE;
    this.pairs = new Set();
    thread.terminate();
  }
}
