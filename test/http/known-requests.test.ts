// A repeated URL of a cacheable route is answered from the answer it was given before
// (server/http/caching/cacheable-answer.ts, `remembered`), skipping its validation. It must answer exactly what
// the route would have answered: the same status, body, ETag and Cache-Control, at every
// instant, including across the second (a transitions window starting now), a clock
// change (a zone's info) and midnight (localized names). Each reference request below
// names a host of its own, so its URL was never seen and the route runs in full.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Instant } from "../../server/core/clock.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { loadData } from "../../server/process/load-data.ts";
import { answerShape, eachRepeatAgainstFresh } from "../support/answer-shape.ts";
import { testAnsweringHandler, testConfig, testDataDir } from "../support/test-server.ts";

let now: Instant = { seconds: 0, micros: 0 };
let handle: (req: Request) => Response | Promise<Response>;

beforeAll(async () => {
  handle = await testAnsweringHandler(() => now);
}, 120_000);

const PATHS = [
  "/timezone/America/New_York/transitions",
  "/timezone/America/New_York/transitions?to=2027-01-01T00:00:00Z",
  "/api/timezone/Europe/London/transitions.txt?from=2026-01-01T00:00:00Z",
  "/timezone/America/New_York/info",
  "/timezone/America/New_York/info?lang=de",
  "/api/timezone/Australia/Lord_Howe/info.txt",
  "/timezone/Europe/London/info?at=2026-03-29T01:00:00Z",
  "/timezone/America/New_York/device",
  "/api/timezone/Europe/London/device.txt",
  "/timezone/America/New_York/device?at=2026-03-08T06:59:59Z",
  "/device",
  "/api/device.txt",
  "/device.csv",
  "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London",
  "/places?q=new%20yo&limit=3",
  "/timezone?q=pacific%20time",
  "/timezone?country=AU",
  "/timezone",
];

// Around New York's spring-forward (2026-03-08T07:00:00Z) and a UTC midnight, a second apart.
const CHANGE = Date.UTC(2026, 2, 8, 7) / 1000;
const INSTANTS = [CHANGE - 2, CHANGE - 1, CHANGE, CHANGE + 1, CHANGE + 86400 - 7 * 3600 - 1, CHANGE + 86400 - 7 * 3600];

/** The answer to `path` from `host` (a host never seen names a URL never seen). */
const answer = async (host: string, path: string, init: RequestInit = {}) => answerShape(await handle(new Request(`http://${host}${path}`, init)));

describe("a remembered URL answers what its route answers", () => {
  test("at each instant, for GET, HEAD and If-None-Match", async () => {
    await eachRepeatAgainstFresh({
      instants: INSTANTS, paths: PATHS, setNow: (instant) => (now = instant), answer, host: "known.example",
      more: async (path, _seen, reference) => {
        const head = await answer("known.example", path, { method: "HEAD" });
        expect(head.etag).toBe(reference.etag);
        const revalidated = await answer("known.example", path, { headers: { "If-None-Match": reference.etag! } });
        expect([revalidated.status, revalidated.etag, revalidated.cacheControl]).toEqual([304, reference.etag, reference.cacheControl]);
      },
    });
  });

  test("a window from now moves with the second; a refused query stays refused", async () => {
    const path = "/timezone/America/New_York/transitions";
    now = { seconds: CHANGE - 1, micros: 0 };
    const before = JSON.parse((await answer("moving.example", path)).body);
    now = { seconds: CHANGE + 1, micros: 0 };
    const after = JSON.parse((await answer("moving.example", path)).body);
    // One second before the change the window holds it; a second after, it starts after it.
    expect(before.transitions[0].at ?? before.transitions[0]).not.toEqual(after.transitions[0].at ?? after.transitions[0]);
    for (let i = 0; i < 3; i++) expect((await answer("moving.example", "/convert?time=2026-13-01T00:00:00&from=UTC&to=UTC")).status).toBe(400);
  });

  test("an answer too big for the cache is not remembered; one it keeps is", async () => {
    // A cache of 32 KB keeps no answer over 8 KB (a quarter): the 10 KB zone list is built each time.
    const state = createAppState(await loadData(await testDataDir()), () => now, await testConfig({ ANSWER_CACHE_BYTES: "32768" }));
    const handler = createFetchHandler(state);
    now = { seconds: CHANGE, micros: 0 };
    for (let i = 0; i < 3; i++) expect((handler(new Request("http://big.example/timezone"), null) as Response).status).toBe(200);
    expect(state.data.memos.answerKeys.size).toBe(0);
    expect((handler(new Request("http://big.example/timezone?country=AU"), null) as Response).status).toBe(200);
    expect(state.data.memos.answerKeys.size).toBe(1);
  });
});
