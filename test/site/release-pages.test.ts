// The release pages and each zone page's history of releases, in a real browser (Debian's
// Chromium) on the real service: every release's page lists exactly the names the API's
// /tzdb/{release}/changes says it changed and added (that route is checked against zdump -v
// in test/http/time-machine.test.ts), each linking to its zone page; a zone page lists
// exactly the releases its feed has entries for, each linking to the release's page; the
// links lead where they say.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  session = await startSiteSession();
  context = await session.browser.newContext({ extraHTTPHeaders: VISITOR });
  page = await context.newPage();
}, 300_000);
afterAll(async () => {
  await context?.close();
  await session?.close();
}, 30_000);

const api = async <T>(path: string): Promise<T> => (await (await fetch(`${session.base}${path}`)).json()) as T;
const hrefs = (selector: string) => page.$$eval(selector, (as: any[]) => as.map((a) => a.getAttribute("href") as string)).catch(() => [] as string[]);

describe("a page per release", () => {
  test("every release's page: the names its changes route lists, each linking to its zone page", async () => {
    const { releases } = await api<{ releases: { release: string; summary: string }[] }>("/tzdb");
    expect(releases.length).toBeGreaterThanOrEqual(88);
    let linked = 0;
    for (const { release, summary } of releases) {
      const changes = await api<{ since: string | null; added: string[]; changed: { timezone: string }[] }>(`/tzdb/${release}/changes`);
      const response = await page.goto(`${session.base}/releases/${release}/`);
      expect({ release, status: response?.status() }).toEqual({ release, status: 200 });
      expect(await page.textContent("h1")).toBe(`tzdb ${release}`);
      expect(await page.textContent(".place")).toBe(summary);
      const shown = [...await hrefs("#changed-future a"), ...await hrefs("#changed-past a")].sort();
      expect({ release, shown }).toEqual({ release, shown: changes.changed.map((c) => `/zones/${c.timezone}/`).sort() });
      expect({ release, added: (await hrefs("#added a")).sort() }).toEqual({ release, added: changes.added.map((n) => `/zones/${n}/`).sort() });
      linked += shown.length;
    }
    expect(linked).toBeGreaterThan(100);
  }, 300_000);

  test("the index lists every release, each linking to its page", async () => {
    const { releases } = await api<{ releases: { release: string }[] }>("/tzdb");
    await page.goto(`${session.base}/releases/`);
    expect(await hrefs("#releases a")).toEqual(releases.map((r) => `/releases/${r.release}/`));
  });
});

describe("each zone page's history of releases", () => {
  test.each(["America/Vancouver", "America/Havana", "Europe/Kyiv", "UTC"])("%s: the releases its feed has entries for, newest first, each linking to its page", async (name) => {
    const feed = await api<{ items: { title: string; url: string }[] }>(`/timezone/${name}/feed.json`);
    await page.goto(`${session.base}/zones/${name}/`);
    expect(await hrefs("#zone-releases a")).toEqual(feed.items.map((i) => i.url));
    if (feed.items.length === 0) expect(await page.textContent("#zone-releases")).toContain("No release served");
  });

  test("America/Vancouver's 2026b entry leads to the 2026b page, whose link leads back", async () => {
    await page.goto(`${session.base}/zones/America/Vancouver/`);
    const entry = page.locator("#zone-releases li", { hasText: "2026b" });
    expect(await entry.textContent()).toMatch(/^2026b: from 2026-11-01 09:00 UTC on: -07 MST, not -08 PST/);
    await entry.locator("a").click();
    await page.waitForURL(`${session.base}/releases/2026b/`);
    await page.locator("#changed-future a", { hasText: "America/Vancouver" }).click();
    await page.waitForURL(`${session.base}/zones/America/Vancouver/`);
  });
});
