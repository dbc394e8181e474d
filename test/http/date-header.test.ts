// The Date header is a clock people set clocks from (htpdate, `curl -I` in shell scripts,
// microcontrollers that read one header). On a time service it names the second the answer
// was made, and agrees with the body (issue 30: Bun's own Date lagged by up to 1.58 s).

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

let service: ServerProcess;
beforeAll(async () => {
  service = await startServerProcess({ RATE_LIMIT: "off" });
}, 120_000);
afterAll(() => service.stop());

const REQUESTS = 10_000;
const PER_SECOND = 400;

test(`Date names the second each answer was made in, over ${REQUESTS} keep-alive requests across second boundaries`, async () => {
  let outside = 0;
  let disagreeing = 0;
  let worstLagMs = 0;
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    // Paced, so that the run spans many second boundaries rather than a burst within one.
    const due = started + (i * 1000) / PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const method = i % 10 === 0 ? "HEAD" : "GET";
    const sent = Date.now();
    const response = await fetch(`${service.url}/timezone/UTC`, { method });
    const body = method === "GET" ? await response.json() as { unixtime: number } : null;
    const received = Date.now();
    const dateSecond = Date.parse(response.headers.get("date")!) / 1000;
    if (dateSecond < Math.floor(sent / 1000) || dateSecond > Math.floor(received / 1000)) {
      outside++;
      worstLagMs = Math.max(worstLagMs, sent - dateSecond * 1000 - 999);
    }
    if (body !== null && body.unixtime !== dateSecond) disagreeing++;
  }
  console.log(`${REQUESTS} requests over ${((performance.now() - started) / 1000).toFixed(1)} s: ${outside} Date headers outside [send, receive] (worst lag ${worstLagMs} ms), ${disagreeing} disagreeing with the body's unixtime`);
  expect(outside).toBe(0);
  expect(disagreeing).toBe(0);
}, 120_000);

test("every kind of answer carries the Date: errors, 304s, preflights, the site's 404", async () => {
  const list = await fetch(`${service.url}/timezone`);
  const etag = list.headers.get("etag")!;
  const cases: [string, RequestInit][] = [
    ["/timezone/Nowhere/Land", {}],
    ["/timezone", { headers: { "If-None-Match": etag } }],
    ["/timezone/UTC", { method: "OPTIONS" }],
    ["/timezone/UTC", { method: "DELETE" }],
    ["/metrics", {}],
    ["/health", {}],
  ];
  for (const [path, init] of cases) {
    const sent = Math.floor(Date.now() / 1000);
    const response = await fetch(`${service.url}${path}`, init);
    await response.arrayBuffer();
    const second = Date.parse(response.headers.get("date") ?? "") / 1000;
    expect({ path, ok: second >= sent && second <= Math.floor(Date.now() / 1000) }).toEqual({ path, ok: true });
  }
});

// The frequent answers carry their Date in shared Headers set once a second (responses.ts,
// `dated`): a Date stamped once and never turned, or turned from another request's reading,
// shows up here as an answer dated outside its own request.
const KINDS = [
  "/timezone/Europe/London", // a time object
  "/timezone", "/timezone/America/New_York/transitions", // cached answers
  "/v2.1/get-time-zone?by=zone&zone=Europe/London&format=json", // a dialect's kept answer
  "/api/TimeZone/zone?timeZone=Europe/London", // timeapi.io's chunked answer
  "/sync?t0=1700000000000",
];
const KIND_REQUESTS = 3_000;

test(`every kind of frequent answer is dated in its own second, over ${KIND_REQUESTS} paced requests`, async () => {
  const outside: Record<string, number> = {};
  const started = performance.now();
  for (let i = 0; i < KIND_REQUESTS; i++) {
    const due = started + (i * 1000) / PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const path = KINDS[i % KINDS.length]!;
    const sent = Math.floor(Date.now() / 1000);
    const response = await fetch(`${service.url}${path}`);
    await response.arrayBuffer();
    const second = Date.parse(response.headers.get("date") ?? "") / 1000;
    if (!(second >= sent && second <= Math.floor(Date.now() / 1000))) outside[path] = (outside[path] ?? 0) + 1;
  }
  expect(outside).toEqual({});
}, 60_000);

test("a POST whose body arrives seconds after it began, other requests meanwhile, is dated when its answer is made", async () => {
  const { connect } = await import("node:net");
  const body = JSON.stringify({ fromTimeZone: "Europe/London", dateTime: "2026-03-29 00:30:00", toTimeZone: "UTC", dstAmbiguity: "" });
  const answer = await new Promise<{ text: string; bodyDone: number }>((resolve, reject) => {
    const socket = connect(service.port, "127.0.0.1");
    let text = "";
    let bodyDone = 0;
    socket.on("connect", async () => {
      socket.write(`POST /api/Conversion/ConvertTimeZone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`);
      // Meanwhile, other answers read the clock, each in its own second.
      for (let i = 0; i < 3; i++) {
        await (await fetch(`${service.url}/timezone/UTC`)).arrayBuffer();
        await Bun.sleep(1100); // the last one a second or more before the body ends
      }
      bodyDone = Math.floor(Date.now() / 1000);
      socket.write(body.slice(5));
    });
    socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
    socket.on("close", () => resolve({ text, bodyDone }));
    socket.on("error", reject);
  });
  expect(answer.text).toStartWith("HTTP/1.1 200");
  const date = Date.parse(/\r\ndate: ([^\r]+)/i.exec(answer.text)![1]!) / 1000;
  expect(date).toBeGreaterThanOrEqual(answer.bodyDone);
  expect(date).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
}, 30_000);
