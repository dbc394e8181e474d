// POST bodies as an attacker sends them (issue 30): chunked past the bound, dripped a byte
// at a time, abandoned half-way. Each must be refused as it arrives, never buffered whole,
// never counted as the service's own failure.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { chunkedUpload } from "../support/hostile-upload.ts";
import { readFileSync } from "node:fs";
import { MAX_BODY_BYTES } from "../../server/http/pipeline/request-body.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

let service: ServerProcess;
beforeAll(async () => {
  service = await startServerProcess({ RATE_LIMIT: "off" });
}, 120_000);
afterAll(() => service.stop());

const POST_PATH = "/api/Conversion/ConvertTimeZone";
const head = (port: number, extra: string) =>
  `POST ${POST_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${extra}\r\n`;

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

async function refusedCount(status: number): Promise<number> {
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  return Number(new RegExp(`zonetime_requests_total\\{route="timeapi_conversion",status="${status}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
}

test("chunked uploads far past the bound are refused as they arrive: 413, the worker's memory flat", async () => {
  const before = rssKb(service.child.pid);
  const refusedBefore = await refusedCount(413);
  const uploads = await Promise.all(Array.from({ length: 8 }, () => chunkedUpload(service.port, POST_PATH, 120_000_000)));
  const after = rssKb(service.child.pid);
  console.log(`8 chunked 120 MB uploads: statuses ${uploads.map((u) => u.status).join(",")}; client had sent ${uploads.map((u) => (u.sent / 1e6).toFixed(1)).join(",")} MB; answered ${uploads.map((u) => u.answeredAfterBoundMs?.toFixed(1)).join(",")} ms after passing ${MAX_BODY_BYTES} bytes; RSS ${before} -> ${after} kB`);
  // Every one answered 413. A client still pushing when the connection closes behind that
  // answer may get a reset before it reads it (the kernel's RST for unread bytes; Bun has
  // no lingering close): it sees 413 or a reset, never anything else.
  expect(await refusedCount(413)).toBe(refusedBefore + 8);
  for (const u of uploads) {
    expect([413, 0]).toContain(u.status);
    // Cut long before the end: what the client wrote past the bound sits in socket buffers, not in the worker.
    expect(u.sent).toBeLessThan(20_000_000);
  }
  expect(after - before).toBeLessThan(20 * 1024);
});

test("a body dripped a byte at a time is cut at the deadline: 408, connection closed", async () => {
  const drips = await Promise.all(Array.from({ length: 3 }, () => new Promise<{ answer: string; ms: number }>((resolve) => {
    const started = performance.now();
    const socket: Socket = connect(service.port, "127.0.0.1");
    let answer = "";
    const timer = setInterval(() => socket.write("1\r\na\r\n"), 1000);
    socket.on("connect", () => socket.write(head(service.port, "Transfer-Encoding: chunked\r\n")));
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    const end = () => {
      clearInterval(timer);
      resolve({ answer, ms: performance.now() - started });
    };
    socket.on("close", end);
    socket.on("error", end);
  })));
  console.log(`drips answered after ${drips.map((d) => d.ms.toFixed(0)).join(", ")} ms`);
  for (const { answer } of drips) {
    expect(answer).toStartWith("HTTP/1.1 408");
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer).toEndWith("request body not received within 5 seconds");
  }
}, 20_000);

test("abandoned and oversize uploads are the client's: 499 and 413 in /metrics, never a 500, one log line each", async () => {
  const N = 1000;
  const abandon = () => new Promise<void>((resolve) => {
    const socket = connect(service.port, "127.0.0.1");
    socket.on("connect", () => {
      socket.write(head(service.port, "Content-Length: 1000\r\n") + "{\"fromTimeZone\":");
      setTimeout(() => socket.destroy(), 5);
    });
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
  });
  const oversize = () => fetch(`${service.url}${POST_PATH}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "x".repeat(MAX_BODY_BYTES + 1) }).then((r) => r.status);
  for (let i = 0; i < N; i += 50) await Promise.all(Array.from({ length: 50 }, abandon));
  const statuses: number[] = [];
  for (let i = 0; i < N; i += 50) statuses.push(...await Promise.all(Array.from({ length: 50 }, oversize)));
  expect(new Set(statuses)).toEqual(new Set([413]));
  // The last abandoned bodies are noticed when Bun sees their sockets close.
  let metrics = "";
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(100)) {
    metrics = await (await fetch(`${service.url}/metrics`)).text();
    if (Number(/zonetime_requests_total\{route="timeapi_conversion",status="499"\} (\d+)/.exec(metrics)?.[1] ?? 0) >= N) break;
  }
  const count = (status: number) => Number(new RegExp(`zonetime_requests_total\\{route="timeapi_conversion",status="${status}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  console.log(`after ${N} abandoned and ${N} oversize: 499=${count(499)} 413=${count(413)} 500=${count(500)}`);
  expect(count(500)).toBe(0);
  expect(metrics).not.toContain('status="500"');
  expect(count(499)).toBe(N);
  expect(count(413)).toBeGreaterThanOrEqual(N);
  expect(service.log.filter((l) => l.includes('"request_failed"'))).toEqual([]);
  expect(service.log.filter((l) => l.includes('"code":"client_closed"')).length).toBe(N);
}, 60_000);
