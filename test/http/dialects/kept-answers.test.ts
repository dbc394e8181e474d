// TimeZoneDB's and Google's answers are kept per URL while they hold
// (server/http/dialects/kept-answers.ts): for good when the query names its instant, for
// the current second when TimeZoneDB's answers "now", and for Google only with the same
// Accept-Language when the query names no language. A repeated URL must answer exactly
// what the route would: each reference request below names a host of its own, so its URL
// was never seen and the route runs in full.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Instant } from "../../../server/core/clock.ts";
import { createMemos } from "../../../server/http/caching/memos.ts";
import { createFetchHandler } from "../../../server/http/pipeline/handler.ts";
import { createAppState } from "../../../server/http/pipeline/app-state.ts";
import { loadData } from "../../../server/process/load-data.ts";
import { answerShape, eachRepeatAgainstFresh } from "../../support/answer-shape.ts";
import { testConfig, testDataDir, testHandler } from "../../support/test-server.ts";

let now: Instant = { seconds: 0, micros: 0 };
let handle: (req: Request) => Response;
let fresh = 0;

beforeAll(async () => {
  handle = await testHandler(() => now);
}, 120_000);

const PATHS = [
  "/v2.1/get-time-zone?by=zone&zone=America/New_York&format=json",
  "/v2.1/get-time-zone?by=zone&zone=EST",
  "/v2/get-time-zone?by=position&lat=40.71&lng=-74.0&format=json&fields=zoneName,abbreviation,timestamp",
  "/v2.1/get-time-zone?by=zone&zone=America/New_York&format=json&callback=cb",
  "/v2.1/get-time-zone?by=zone&zone=America/New_York&time=1772953200&format=json",
  "/v2.1/get-time-zone?by=city&country=US&city=New%20York&format=json",
  "/v2.1/convert-time-zone?from=America/New_York&to=Europe/London&format=json",
  "/v2.1/list-time-zone?country=US&format=json",
  "/maps/api/timezone/json?location=40.71,-74.0&timestamp=1772953199",
  "/maps/api/timezone/xml?location=40.71,-74.0&timestamp=1772953200&language=de",
];

// Around New York's spring-forward (2026-03-08T07:00:00Z, 1772953200), a second apart.
const CHANGE = Date.UTC(2026, 2, 8, 7) / 1000;
const INSTANTS = [CHANGE - 2, CHANGE - 1, CHANGE, CHANGE + 1];

/** The answer to `path` from `host` (a host never seen names a URL never seen). */
const answer = (host: string, path: string, init: RequestInit = {}) => answerShape(handle(new Request(`http://${host}${path}`, init)));

describe("a kept dialect answer is what the route answers", () => {
  test("at each instant around a clock change, for GET and HEAD", async () => {
    await eachRepeatAgainstFresh({
      instants: INSTANTS, paths: PATHS, setNow: (instant) => (now = instant), answer, host: "kept.example",
      more: async (path, seen, reference) => {
        expect(seen.body).not.toContain("FAILED");
        const head = await answer("kept.example", path, { method: "HEAD" });
        expect({ ...head, body: "" }).toEqual({ ...reference, body: "" });
      },
    });
  });

  test("an answer about now moves with the second", async () => {
    const path = "/v2.1/get-time-zone?by=zone&zone=America/New_York&format=json";
    now = { seconds: CHANGE - 1, micros: 0 };
    const before = JSON.parse((await answer("moving.example", path)).body);
    now = { seconds: CHANGE, micros: 0 };
    const after = JSON.parse((await answer("moving.example", path)).body);
    expect([before.abbreviation, after.abbreviation]).toEqual(["EST", "EDT"]);
    expect(after.timestamp - before.timestamp).toBe(1 + 3600);
  });

  test("Google without a language: kept per Accept-Language", async () => {
    now = { seconds: CHANGE, micros: 0 };
    const path = "/maps/api/timezone/json?location=48.85,2.35&timestamp=1772953200";
    const named = async (acceptLanguage: string | null) =>
      JSON.parse((await answer("lang.example", path, acceptLanguage === null ? {} : { headers: { "Accept-Language": acceptLanguage } })).body).timeZoneName;
    const english = await named(null);
    const french = await named("fr-FR,fr;q=0.9");
    expect(english).toBe("Central European Standard Time");
    expect(french).toBe("heure normale d’Europe centrale");
    expect(await named(null)).toBe(english);
    expect(await named("fr-FR,fr;q=0.9")).toBe(french);
    // A language the query names wins over the header, kept or not.
    const withLanguage = `${path}&language=de`;
    for (const header of ["fr", "en", "ja"]) {
      const name = JSON.parse((await answer("lang.example", withLanguage, { headers: { "Accept-Language": header } })).body).timeZoneName;
      expect(name).toBe("Mitteleuropäische Normalzeit");
    }
  });

  test("a refusal is never kept: the same URL is refused each time", async () => {
    now = { seconds: CHANGE, micros: 0 };
    for (const path of ["/v2.1/get-time-zone?by=zone&zone=Nowhere/City&format=json", "/maps/api/timezone/json?location=99,0&timestamp=1"]) {
      for (let repeat = 0; repeat < 3; repeat++) {
        const body = (await answer("refused.example", path)).body;
        expect(body).toMatch(/FAILED|INVALID_REQUEST/);
      }
    }
  });
});

describe("the kept answers are bounded", () => {
  test("by bytes: no long URL, and a budget the whole stays under", () => {
    const kept = createMemos().dialectAnswers;
    const body = new Blob(["x".repeat(1000)]);
    kept.set(`http://h/${"a".repeat(300)}`, { body, headers: new Headers(), second: null, acceptLanguage: undefined });
    expect(kept.size).toBe(0);
    for (let i = 0; i < 10_000; i++) {
      kept.set(`http://h/${i}`, { body, headers: new Headers(), second: null, acceptLanguage: undefined });
      expect(kept.stats().bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    }
    expect(kept.size).toBeGreaterThan(100);
    // The same URL kept again replaces its entry: the bytes do not grow.
    const before = kept.stats().bytes;
    kept.set("http://h/9999", { body, headers: new Headers(), second: null, acceptLanguage: undefined });
    expect(kept.stats().bytes).toBe(before);
  });

  test("through the handler: answers are kept, and 20,000 distinct URLs stay within the budget", async () => {
    const state = createAppState(await loadData(await testDataDir()), () => now, await testConfig());
    const handler = createFetchHandler(state);
    now = { seconds: CHANGE, micros: 0 };
    const kept = state.data.memos.dialectAnswers;
    for (let i = 0; i < 20_000; i++) {
      const res = handler(new Request(`http://many.example/v2.1/get-time-zone?by=zone&zone=UTC&format=json&n=${i}`), null) as Response;
      expect(res.status).toBe(200);
      if (i === 0) expect(kept.size).toBe(1);
    }
    expect(kept.size).toBeGreaterThan(100);
    expect(kept.stats().bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  test("Google's answers keep Accept-Language's languages in order, never the header: a 15 KB header costs 5 characters", async () => {
    const state = createAppState(await loadData(await testDataDir()), () => now, await testConfig());
    const handler = createFetchHandler(state);
    const reference = await testHandler(() => now);
    now = { seconds: CHANGE, micros: 0 };
    const long = `en-US, ${"x".repeat(15_000)}`;
    const path = "/maps/api/timezone/json?location=40.71,-74.0&timestamp=1772953200";
    for (const header of [long, "en-US", "en-US;q=0.9, fr", " en-US ", "fr-FR", "fr", "fr;q=1", "", "*"]) {
      const url = `http://tags.example${path}`;
      const body = await (handler(new Request(url, { headers: { "Accept-Language": header } }), null) as Response).text();
      const made = await reference(new Request(`http://ref${fresh++}.example${path}`, { headers: { "Accept-Language": header } })).text();
      expect({ header: header.slice(0, 20), body }).toEqual({ header: header.slice(0, 20), body: made });
    }
    const kept = state.data.memos.dialectAnswers.get(`http://tags.example${path}`)!;
    expect((kept.acceptLanguage ?? "").length).toBeLessThanOrEqual(30);
    handler(new Request(`http://long.example${path}`, { headers: { "Accept-Language": long } }), null);
    expect(state.data.memos.dialectAnswers.get(`http://long.example${path}`)!.acceptLanguage).toBe("en-US");
  });
});
