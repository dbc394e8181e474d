// The one memo mechanism (server/http/caching/memo.ts): bounded by entries, key length and
// bytes; every store counted (hits, misses, evictions, entries, bytes) and reported in
// /metrics under its name; counts that survive a reload of the data.

import { beforeAll, describe, expect, test } from "bun:test";
import { Memo } from "../../server/http/caching/memo.ts";
import { createMemos } from "../../server/http/caching/memos.ts";
import { testHandler } from "../support/test-server.ts";

const bounds = { maxEntries: 100, maxKeyLength: 16, maxBytes: 100_000 };

describe("Memo", () => {
  test("a key once set is a hit; an absent one a miss", () => {
    const memo = new Memo<number>("m", bounds);
    expect(memo.get("a")).toBeUndefined();
    memo.set("a", 1);
    expect(memo.get("a")).toBe(1);
    expect(memo.stats()).toMatchObject({ hits: 1, misses: 1, evictions: 0, entries: 1 });
  });
  test("a key past its bound is never kept", () => {
    const memo = new Memo<number>("m", bounds);
    memo.set("x".repeat(17), 1);
    expect(memo.size).toBe(0);
  });
  test("bounded by entries: cleared when full, the dropped entries counted", () => {
    const memo = new Memo<number>("m", bounds);
    for (let i = 0; i < 250; i++) {
      memo.set(`k${i}`, i);
      expect(memo.size).toBeLessThanOrEqual(100);
    }
    expect(memo.stats().evictions).toBe(200);
    expect(memo.get("k249")).toBe(249);
  });
  test("bounded by bytes, as bytesOf counts each value", () => {
    const memo = new Memo<string>("m", { ...bounds, maxBytes: 20_000 }, (v) => v.length * 2);
    for (let i = 0; i < 1000; i++) {
      memo.set(`k${i}`, "v".repeat(1000));
      expect(memo.stats().bytes).toBeLessThanOrEqual(20_000);
    }
    memo.set("huge", "v".repeat(20_000)); // bigger than the whole budget: not kept
    expect(memo.get("huge")).toBeUndefined();
  });
  test("replacing a key keeps the bytes the same", () => {
    const memo = new Memo<string>("m", bounds, (v) => v.length);
    memo.set("a", "xxxx");
    const before = memo.stats().bytes;
    memo.set("a", "yyyy");
    expect(memo.stats().bytes).toBe(before);
  });
  test("a store that replaces another (a reload) continues its counts; what it held counts as evicted", () => {
    const old = new Memo<number>("m", bounds);
    old.set("a", 1);
    old.get("a");
    old.get("b");
    const next = new Memo<number>("m", bounds, undefined, old);
    expect(next.stats()).toEqual({ hits: 1, misses: 1, evictions: 1, entries: 0, bytes: 0 });
  });
  test("every store of a data load has a distinct name", () => {
    const names = Object.values(createMemos()).map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("/metrics", () => {
  let handle: (req: Request) => Response;
  beforeAll(async () => {
    handle = await testHandler();
  }, 120_000);
  const metric = (text: string, name: string, memo: string) => Number(new RegExp(`^${name}\\{memo="${memo}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);

  test("reports every store's hits, misses, evictions, entries and bytes", async () => {
    for (let i = 0; i < 3; i++) handle(new Request("http://h/ip/8.8.8.8"));
    const text = await handle(new Request("http://h/metrics")).text();
    for (const name of ["routes", ...Object.values(createMemos()).map((m) => m.name)]) {
      for (const series of ["zonetime_memo_hits_total", "zonetime_memo_misses_total", "zonetime_memo_evictions_total", "zonetime_memo_entries", "zonetime_memo_bytes"]) {
        expect({ name, series, value: Number.isFinite(metric(text, series, name)) }).toEqual({ name, series, value: true });
      }
    }
    expect(metric(text, "zonetime_memo_hits_total", "addresses")).toBeGreaterThanOrEqual(2);
    expect(metric(text, "zonetime_memo_entries", "addresses")).toBeGreaterThanOrEqual(1);
    expect(metric(text, "zonetime_memo_bytes", "addresses")).toBeGreaterThan(0);
    expect(metric(text, "zonetime_memo_hits_total", "routes")).toBeGreaterThanOrEqual(2);
  });
});
