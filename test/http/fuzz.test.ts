// 10,000 random and malformed requests over raw sockets (random bytes, methods, paths,
// percent-escapes, headers): no response may be a 5xx, and the process must still serve.
// Seeded, so a failure reproduces.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { rawRequest, statusOf } from "../support/raw-http.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

const REQUESTS = 10_000;
const CONCURRENCY = 64;

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
}, 120_000);
afterAll(async () => server?.stop());

let seed = 20261121;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const randomBytes = (n: number) => Array.from({ length: n }, () => String.fromCharCode(Math.floor(random() * 256))).join("");

const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "TRACE", "CONNECT", "PATCH", "get", "G\u0000T", "", "BREW"];
const SEGMENTS = ["timezone", "ip", "api", "Europe", "London", "America", "Argentina", "Salta", "UTC", "8.8.8.8", "::1",
  "2001:db8::1", "..", ".", "", "%2F", "%00", "%zz", "%", "%E2%82%AC", "%C0%AF", "txt", ".txt", "health", "a".repeat(300), "🙂"];
const QUERIES = ["", "?at=0", "?at=-1.5", "?at=1e9", "?at=2026-02-30T00:00:00Z", "?at=%", "?at=" + "9".repeat(50), "?a=b&at=1&at=2", "?&&&", "?at=2026-11-21T00:00:00+25:00"];
const HEADERS = ["Host: localhost", "Host:", "Host: " + randomBytes(20).replace(/[\r\n]/g, ""), "Accept: */*", "Transfer-Encoding: chunked",
  "Content-Length: 5", "Content-Length: -1", "X-Forwarded-For: 1.2.3.4", "If-None-Match: *", "Connection: keep-alive", "Expect: 100-continue"];

function randomRequest(): string {
  const kind = random();
  if (kind < 0.1) return randomBytes(1 + Math.floor(random() * 200));
  const segments = Array.from({ length: Math.floor(random() * 5) }, () => pick(SEGMENTS));
  let path = "/" + segments.join("/");
  if (random() < 0.1) path = randomBytes(30).replace(/[\r\n ]/g, "x");
  const headers = Array.from({ length: Math.floor(random() * 4) }, () => pick(HEADERS));
  if (random() < 0.8) headers.push("Host: 127.0.0.1");
  const version = random() < 0.9 ? "HTTP/1.1" : pick(["HTTP/1.0", "HTTP/2.0", "HTTP/9", "FOO"]);
  const body = random() < 0.2 ? randomBytes(Math.floor(random() * 10)) : "";
  return `${pick(METHODS)} ${path}${pick(QUERIES)} ${version}\r\n${headers.join("\r\n")}\r\nConnection: close\r\n\r\n${body}`;
}

test(`${REQUESTS} random and malformed requests: 0 responses with status 5xx, still serving`, async () => {
  const statuses = new Map<number, number>();
  const fiveHundreds: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const request = randomRequest();
      const response = await rawRequest(server.port, request, 3000).catch(() => "");
      const status = statusOf(response);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      // Bun's parser answers 505 to a request line it cannot read (DESIGN.md: Bun's own
      // 400/431/505 stand); those never reach our handler, so they lack our headers.
      // Any other 5xx, or a 505 with our headers, is ours, and a bug.
      const bunsOwn505 = status === 505 && !/\r\nx-tzdb-version:/i.test(response);
      if (status >= 500 && !bunsOwn505) fiveHundreds.push(`${JSON.stringify(request.slice(0, 120))} -> ${response.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(`fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))} (0 = connection closed without a response)`);
  expect(fiveHundreds).toEqual([]);
  expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(REQUESTS);
  expect(server.child.exitCode).toBeNull();
  const after = await fetch(`${server.url}/timezone/Europe/London`);
  expect(after.status).toBe(200);
}, 180_000);
