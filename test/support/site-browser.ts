// The website in a real browser (Debian's Chromium through playwright-core), served by the
// real service on the test data: what every browser suite of the site shares.

import { mkdirSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startServer, type Service } from "../../server/process/service.ts";
import { launchBrowser } from "./browser.ts";
import { ROOT, testConfig, testSiteDir } from "./test-server.ts";

export const SCREENSHOTS = join(ROOT, "test-artifacts", "screenshots");
// The browser visits as a public client behind a trusted proxy, so /ip has a location.
export const VISITOR = { "X-Forwarded-For": "8.8.8.8" };

export interface SiteSession {
  service: Service;
  base: string;
  browser: Browser;
  /** Every page of the site, but only a sample of the zone pages. */
  pages: string[];
  close(): Promise<void>;
}

export async function startSiteSession(): Promise<SiteSession> {
  const siteDir = await testSiteDir();
  const service = await startServer(await testConfig({ SITE_DIR: siteDir, TRUST_PROXY: "loopback", RATE_LIMIT: "off" }), { sharePort: false });
  const browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  let pages: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name === "index.html") pages.push(`/${relative(siteDir, dir).split(sep).join("/")}${dir === siteDir ? "" : "/"}`);
    }
  };
  walk(siteDir);
  // The 597 zone pages share one template: three of them, and a link's page, stand for all
  // (zone-map.test.ts checks every one's data).
  const ZONE_SAMPLES = ["/zones/Europe/London/", "/zones/America/Havana/", "/zones/Australia/Lord_Howe/", "/zones/GB/"];
  // Likewise the release pages (release-pages.test.ts checks every one's data): the index, the oldest and one with changes.
  const RELEASE_SAMPLES = ["/releases/", "/releases/2026b/", "/releases/2012e/"];
  pages = pages.filter((p) => (!p.startsWith("/zones/") || ZONE_SAMPLES.includes(p)) && (!p.startsWith("/releases/") || RELEASE_SAMPLES.includes(p)));
  pages.sort();
  return {
    service,
    base: `http://127.0.0.1:${service.server.port}`,
    browser,
    pages,
    async close() {
      await browser.close();
      service.server.stop(true);
    },
  };
}

/** Opens `path` in a new page, collecting console errors, page errors and failed or 4xx/5xx requests. */
export async function visit(context: BrowserContext, base: string, path: string) {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
  await settle(page);
  return { page, problems, status: response?.status() ?? 0 };
}

/** Lets a page's live parts make their first requests (its clocks poll forever, so "network idle" may never come). */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => {});
}
