// The website's links and weight in a real browser (Debian's Chromium through
// playwright-core), served by the real service: every internal link on every page
// resolves, and the home page stays light.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { settle, startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
let base: string;
let browser: Browser;
let pages: string[];

beforeAll(async () => {
  session = await startSiteSession();
  ({ base, browser, pages } = session);
}, 120_000);
afterAll(() => session?.close());

describe("links and weight", () => {
  test("every internal link on every page resolves", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: VISITOR });
    const links = new Set<string>();
    for (const path of pages) {
      const page = await context.newPage();
      await page.goto(`${base}${path}`);
      for (const href of await page.$$eval("a[href^='/']", (as) => as.map((a) => a.getAttribute("href")!))) links.add(href);
      await page.close();
    }
    const broken: string[] = [];
    for (const href of links) {
      const r = await fetch(`${base}${href}`, { headers: VISITOR });
      if (r.status !== 200) broken.push(`${href}: ${r.status}`);
    }
    expect(links.size).toBeGreaterThan(15);
    expect(broken).toEqual([]);
    await context.close();
  }, 120_000);

  test("the home page weighs under 150 KB, under 30 KB of it JavaScript", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: VISITOR });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const sizes = new Map<string, { bytes: number; type: string; url: string }>();
    const types = new Map<string, { type: string; url: string }>();
    cdp.on("Network.responseReceived", (e: any) => types.set(e.requestId, { type: e.type, url: e.response.url }));
    cdp.on("Network.loadingFinished", (e: any) => sizes.set(e.requestId, { bytes: e.encodedDataLength, type: types.get(e.requestId)?.type ?? "", url: types.get(e.requestId)?.url ?? "" }));
    await page.goto(`${base}/`, { waitUntil: "load" });
    await settle(page);
    const html = await page.content();
    const inlineScript = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].reduce((n, m) => n + m[1]!.length, 0);
    // The map (its code, in two files since release pages share its shapes, and data, loaded after the page) has its own budget: 500 KB.
    const isMap = (url: string) => /\/zone-map\.json$|\/zone-offsets\.json$|\/_astro\/zone-map-(draw|shapes)\.[^/]+\.js$/.test(url);
    const mapBytes = [...sizes.values()].filter((s) => isMap(s.url)).reduce((n, s) => n + s.bytes, 0);
    for (const [id, s] of sizes) if (isMap(s.url)) sizes.delete(id);
    const total = [...sizes.values()].reduce((n, s) => n + s.bytes, 0);
    const scriptFiles = [...sizes.values()].filter((s) => s.type === "Script").reduce((n, s) => n + s.bytes, 0);
    console.log(`home page: ${total} bytes transferred in ${sizes.size} responses; JavaScript ${scriptFiles} bytes in files + ${inlineScript} inline; the map ${mapBytes} bytes`);
    // Loaded, as the build's Brotli copies (about 84 KB; 420 KB uncompressed).
    expect(mapBytes).toBeGreaterThan(50 * 1024);
    expect(mapBytes).toBeLessThan(500 * 1024);
    expect(total).toBeLessThan(150 * 1024);
    expect(scriptFiles + inlineScript).toBeLessThan(30 * 1024);
    await context.close();
  }, 60_000);
});
