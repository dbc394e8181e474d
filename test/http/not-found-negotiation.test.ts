// An unknown path answers the JSON error unless the client asks for HTML: curl, fetch()
// and API clients (no Accept, */*, application/json) get {"error":"not found"}; a browser
// (Accept naming text/html) gets the website's 404 page.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type Service } from "../../server/process/service.ts";
import { testConfig, testSiteDir } from "../support/test-server.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";

let service: Service;
beforeAll(async () => {
  service = await startServer(await testConfig({ SITE_DIR: await testSiteDir() }), { sharePort: false });
}, 120_000);
afterAll(() => service?.server.stop(true));

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

async function notFound(method: string, accept: string | null) {
  const header = accept === null ? "" : `Accept: ${accept}\r\n`;
  const text = await rawRequest(service.server.port!, `${method} /no/such/page HTTP/1.1\r\nHost: localhost\r\n${header}Connection: close\r\n\r\n`);
  const type = /\r\ncontent-type: ([^\r]*)/i.exec(text)?.[1];
  return { status: statusOf(text), type, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
}

test.each([
  ["no Accept", null],
  ["*/*", "*/*"],
  ["application/json", "application/json"],
  ["text/html refused by q=0", "application/json, text/html;q=0"],
  ["text/plain", "text/plain"],
])("%s: the JSON error", async (_, accept) => {
  const r = await notFound("GET", accept);
  expect(r).toEqual({ status: 404, type: "application/json; charset=utf-8", body: JSON.stringify({ error: "not found" }) });
});

test.each([
  ["a browser's navigation", BROWSER],
  ["text/html alone", "text/html"],
  ["TEXT/HTML; q=0.5", "TEXT/HTML; q=0.5"],
])("%s: the site's 404 page", async (_, accept) => {
  const r = await notFound("GET", accept);
  expect(r.status).toBe(404);
  expect(r.type).toBe("text/html; charset=utf-8");
  expect(r.body).toContain("<h1>Not found</h1>");
});

test("HEAD negotiates the same way", async () => {
  expect((await notFound("HEAD", null)).type).toBe("application/json; charset=utf-8");
  expect((await notFound("HEAD", BROWSER)).type).toBe("text/html; charset=utf-8");
});
