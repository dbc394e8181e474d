// Methods Bun's parser does not know (`FOO`) or lower-case ones (`get`) never reach the
// service: Bun 1.4.4 closes the connection with no answer, and nothing in Bun.serve can
// change that (issue 30). This test pins it, so that a Bun which starts answering them is
// noticed, and proves the shipped nginx configuration answers every client: 405 in the
// error shape for an unknown method, nginx's 400 for a lower-case one.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { rawRequest, statusOf } from "../support/raw-http.ts";
import { startNginx } from "../support/nginx.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";

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
