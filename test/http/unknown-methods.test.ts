// Methods Bun's parser does not know (`FOO`) or lower-case ones (`get`) never reach the
// service: Bun 1.4.4 closes the connection with no answer, and nothing in Bun.serve can
// change that (issue 30). This test pins it, so that a Bun which starts answering them is
// noticed, and proves the shipped nginx configuration answers every client: 405 in the
// error shape for an unknown method, nginx's 400 for a lower-case one.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { rawRequest, statusOf } from "../support/raw-http.ts";
import { startNginx } from "../support/nginx.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { chunkedUpload } from "../support/hostile-upload.ts";

let service: ServerProcess;
let nginx: Awaited<ReturnType<typeof startNginx>>;
beforeAll(async () => {
  service = await startServerProcess({ RATE_LIMIT: "off" });
  nginx = await startNginx([service.port]);
}, 120_000);
afterAll(async () => {
  await nginx?.stop();
  await service?.stop();
});

const request = (method: string) => `${method} /timezone/UTC HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

test("Bun alone: an unknown or lower-case method gets the connection closed without a byte", async () => {
  for (const method of ["FOO", "get", "Get"]) {
    expect({ method, answer: await rawRequest(service.port, request(method), 2000) }).toEqual({ method, answer: "" });
  }
  expect(statusOf(await rawRequest(service.port, request("GET")))).toBe(200);
});

test("behind the shipped nginx: 405 in the error shape for an unknown method, 400 for a lower-case one", async () => {
  for (const method of ["FOO", "PROPFIND", "PURGE"]) {
    const answer = await rawRequest(nginx.port, request(method));
    expect({ method, status: statusOf(answer) }).toEqual({ method, status: 405 });
    expect(answer).toContain('{"error":"method not allowed"}');
    expect(answer).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/);
  }
  for (const method of ["get", "Get"]) expect({ method, status: statusOf(await rawRequest(nginx.port, request(method))) }).toEqual({ method, status: 400 });
  expect(statusOf(await rawRequest(nginx.port, request("GET")))).toBe(200);
  expect(statusOf(await rawRequest(nginx.port, request("OPTIONS")))).toBe(204);
});

// Bun alone may reset a client still writing an oversize body before it reads the 413 (it
// has no lingering close; hostile-bodies.test.ts). The shipped nginx refuses such a body
// itself, in the error shape, and lingers: every client reads its answer.
test("behind the shipped nginx: every one of 8 chunked uploads past 16 KiB reads a 413 in the error shape", async () => {
  const uploads = await Promise.all(Array.from({ length: 8 }, () => chunkedUpload(nginx.port, "/api/Conversion/ConvertTimeZone", 120_000_000, true)));
  console.log(`through nginx: statuses ${uploads.map((u) => u.status).join(",")}; answered ${uploads.map((u) => u.answeredAfterBoundMs?.toFixed(1)).join(",")} ms after passing the bound`);
  for (const upload of uploads) {
    expect(upload.status).toBe(413);
    expect(JSON.parse(upload.body)).toEqual({ error: "request body too large: at most 16384 bytes" });
  }
  // A body within the bound still reaches the service.
  const small = await fetch(`http://127.0.0.1:${nginx.port}/api/Conversion/ConvertTimeZone`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fromTimeZone: "Europe/London", dateTime: "2026-03-29 00:30:00", toTimeZone: "UTC", dstAmbiguity: "" }),
  });
  expect(small.status).toBe(200);
}, 60_000);
