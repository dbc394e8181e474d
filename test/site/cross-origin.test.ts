// CORS for real: a page served from another local origin fetches the API in Chromium and
// reads the JSON of a success, of an address lookup and of an error, and passes a
// preflight (a custom request header forces one).

import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { startServer, type Service } from "../../server/process/service.ts";
import { launchBrowser } from "../support/browser.ts";
import { testConfig } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";

let api: Service;
let other: ReturnType<typeof Bun.serve>;
let browser: Browser;

beforeAll(async () => {
  api = await startServer(await testConfig(), { sharePort: false });
  const apiBase = `http://127.0.0.1:${api.server.port}`;
  const page = `<!doctype html><meta charset="utf-8"><title>another origin</title><pre id="out">running</pre>
<script type="module">
  const ask = async (path, headers) => {
    try {
      const r = await fetch("${apiBase}" + path, { headers });
      return { status: r.status, body: await r.json(), tzdb: r.headers.get("X-Tzdb-Version") };
    } catch (e) { return { failed: String(e) }; }
  };
  const results = {
    london: await ask("/timezone/Europe/London"),
    ip: await ask("/ip/8.8.8.8"),
    unknown: await ask("/timezone/Nowhere/City"),
    preflighted: await ask("/timezone/UTC", { "X-Requested-By": "cross-origin-test" }),
  };
  document.getElementById("out").textContent = JSON.stringify(results);
</script>`;
  // "localhost" vs "127.0.0.1" with another port: a different origin.
  other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(page, { headers: { "Content-Type": "text/html" } }) });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  other?.stop(true);
  api?.server.stop(true);
});

test("a page on another origin reads answers and errors, preflight included", async () => {
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().includes("404")) consoleErrors.push(m.text());
  });
  await page.goto(`http://localhost:${other.port}/`);
  await page.waitForFunction(() => (globalThis as any).document.getElementById("out").textContent !== "running");
  const results = JSON.parse((await page.textContent("#out"))!);
  const tzdb = sourceRelease();
  expect(results.london).toMatchObject({ status: 200, body: { timezone: "Europe/London" }, tzdb });
  expect(results.ip).toMatchObject({ status: 200, body: { timezone: "America/Los_Angeles", client_ip: "8.8.8.8" } });
  expect(results.unknown).toEqual({ status: 404, body: { error: "unknown location" }, tzdb });
  expect(results.preflighted).toMatchObject({ status: 200, body: { timezone: "UTC" } });
  expect(consoleErrors).toEqual([]);
  await page.close();
}, 60_000);
