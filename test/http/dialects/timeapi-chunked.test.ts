// timeapi.io's legacy zone answers go out as Kestrel sends them: Transfer-Encoding:
// chunked, the JSON in one chunk. SenseCAP's firmware reads TimeZone/ip's answer byte by
// byte (it skips "\r\n\r\n" and three bytes of the chunk-size line before the JSON), so
// the bytes on the socket are checked here, not what a fetch client reassembles.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { startTestServer } from "../../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);

afterAll(() => server.stop());

/** The whole answer to one request on its own connection, as the bytes arrived. */
function rawAnswer(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1", () => socket.write(request)); // not half-closed: a firmware keeps its side open
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

test.each(["/api/TimeZone/ip?ipAddress=8.8.8.8", "/api/TimeZone/zone?timeZone=Europe/London"])("%s is one chunk on the wire, its size line before the JSON", async (path) => {
  const text = await rawAnswer(`GET ${path} HTTP/1.1\r\nHost: t.example\r\nUser-Agent: sensecap\r\nConnection: close\r\n\r\n`);
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split).toLowerCase();
  const body = text.slice(split + 4);
  expect(head).toStartWith("http/1.1 200");
  expect(head).toContain("\r\ntransfer-encoding: chunked");
  expect(head).not.toContain("content-length");
  const chunk = /^([0-9a-f]+)\r\n([\s\S]*)\r\n0\r\n\r\n$/i.exec(body);
  expect(chunk).not.toBeNull();
  const json = chunk![2]!;
  expect(Buffer.byteLength(json)).toBe(parseInt(chunk![1]!, 16));
  expect(Object.keys(JSON.parse(json))).toContain("currentUtcOffset");
});

test("HEAD of the same carries no chunk", async () => {
  const text = await rawAnswer("HEAD /api/TimeZone/zone?timeZone=Europe/London HTTP/1.1\r\nHost: t.example\r\nConnection: close\r\n\r\n");
  expect(text.toLowerCase()).toStartWith("http/1.1 200");
  expect(text.slice(text.indexOf("\r\n\r\n") + 4)).toBe("");
});
