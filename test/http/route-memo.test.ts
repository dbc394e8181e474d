// The memo of what a URL routes to (server/http/caching/route-memo.ts): the same answer as
// parsing and matching each time, bounded however many distinct URLs arrive, and shared
// answers that no handler can change for the next request.

import { describe, expect, test } from "bun:test";
import { RouteMemo } from "../../server/http/caching/route-memo.ts";
import { requestTarget } from "../../server/http/pipeline/request-target.ts";
import { matchRoute } from "../../server/http/routing/match-route.ts";

const URLS = [
  "http://h/timezone/Europe/London", "http://h/api/timezone/Europe/London.txt", "http://h/ip/2001:db8::1",
  "http://h/timezone/America/New_York/transitions?from=2026-01-01", "http://h/convert?time=2026-03-08T02:30:00&from=UTC&to=UTC",
  "http://h/api/TimeZone/zone?timeZone=UTC", "http://h/docs/", "http://h/api/nowhere", "/relative/when/host/is/garbage?q=1",
  "http://h/timezone/Europe%2FLondon", "http://h/sync/", "http://h/api.txt",
];

describe("RouteMemo", () => {
  test("answers what parsing and matching the URL answers, the first time and when repeated", () => {
    const memo = new RouteMemo();
    for (let round = 0; round < 2; round++) {
      for (const url of URLS) {
        const target = requestTarget(url);
        expect(memo.route(url)).toEqual({ target, match: matchRoute(target.path) });
      }
    }
    expect(memo.size).toBe(URLS.length);
  });

  test("stays bounded under URLs chosen to be unique, and keeps no long URL", () => {
    const memo = new RouteMemo();
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      memo.route(`http://h/timezone/Etc/GMT+${i}`);
      most = Math.max(most, memo.size);
    }
    expect(most).toBeLessThanOrEqual(4096);
    expect(most).toBeGreaterThan(1000); // it does remember
    const before = memo.size;
    const long = `http://h/timezone/${"x".repeat(300)}`;
    expect(memo.route(long).match.params).toEqual(["x".repeat(300)]);
    expect(memo.size).toBe(before);
  });

  test("a shared answer cannot be changed by the request that got it", () => {
    const memo = new RouteMemo();
    const first = memo.route("http://h/timezone/Europe/London");
    expect(() => (first.match.params as string[]).push("Paris")).toThrow();
    expect(() => { (first.target as { path: string }).path = "/elsewhere"; }).toThrow();
    expect(memo.route("http://h/timezone/Europe/London").match.params).toEqual(["Europe/London"]);
  });
});
