// /places under random input: seeded random query strings (random bytes, percent-escapes
// good and broken, any parameter, any length) through the fetch handler. Every answer is
// 200 with a JSON array or 400 with the one error shape; never a 5xx.

import { beforeAll, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 300_000);

test("3,000 random /places queries: 200 with an array or 400 with {error}, nothing else", async () => {
  let seed = 19;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const pieces = ["a", "Z", "é", "%C3%A9", "%", "%Z", "%E0%A4", "%00", "%0A", "%7F", "%F0%9F%98%80", "+", "%20", " ", "&", "=", "-", "'",
    "%ED%A0%80", "new", "york", "paris", "東京", "%E2%80%AE", "\\", "..", "q=", "limit=", "country=", "lang="];
  const value = () => Array.from({ length: Math.floor(random() * (random() < 0.05 ? 400 : 12)) }, () => pick(pieces)).join("");
  const seen = new Set<number>();
  for (let i = 0; i < 3000; i++) {
    const params = Array.from({ length: Math.floor(random() * 4) }, () => `${pick(["q", "country", "limit", "lang", "x", "q"])}=${value()}`);
    const url = `http://127.0.0.1/places?${params.join("&")}`.replace(/ /g, "%20");
    const response = handle(new Request(url));
    seen.add(response.status);
    const body = await response.json();
    if (response.status === 200) expect(Array.isArray(body)).toBe(true);
    else {
      expect(response.status, url).toBe(400);
      expect(Object.keys(body as object)).toEqual(["error"]);
    }
  }
  expect([...seen].sort()).toEqual([200, 400]);
}, 120_000);
