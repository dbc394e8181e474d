// The zone pages are the hub (issue 34): every zone name on /timezones/, in its search
// results and on the home page's clocks is a link a visitor can click to land on
// /zones/<name>/; the search ranks the zone a person means first, keeps its text in the
// address, and agrees with the API's own /timezone?q=.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
let base: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  session = await startSiteSession();
  base = session.base;
  context = await session.browser.newContext({ extraHTTPHeaders: VISITOR });
  page = await context.newPage();
}, 180_000);
afterAll(async () => {
  await context?.close();
  await session?.close();
}, 30_000);

/** The names of the rows the search shows, in order. */
const shownRows = (p: Page) => p.$$eval("#zone-table tbody tr:not([hidden])", (rows: any[]) => rows.map((r) => r.dataset.name as string));

/** Types `query` into the Timezones search and waits until the table answers it. */
async function searchFor(p: Page, query: string): Promise<string[]> {
  await p.fill("#zone-search", query);
  await p.press("#zone-search", "Enter");
  await p.waitForFunction((q) => new URL((globalThis as any).location.href).searchParams.get("q") === q.trim(), query);
  return shownRows(p);
}

describe("every zone name leads to its zone page", () => {
  test("each of the 597 names on /timezones/, found by the search and clicked, asks for /zones/<name>/, which is that zone's page", async () => {
    const names = (await (await fetch(`${base}/timezone`)).json()) as string[];
    expect(names.length).toBeGreaterThan(590);
    await page.goto(`${base}/timezones/`);
    // The clicks' navigations are answered 204 (the browser stays on the list) and recorded:
    // a real click on a real link; the pages themselves are fetched below.
    const asked: string[] = [];
    await page.route(/\/zones\//, (route) => {
      asked.push(decodeURIComponent(new URL(route.request().url()).pathname));
      return route.fulfill({ status: 204 });
    });
    const notFound: string[] = [];
    for (const name of names) {
      const rows = await searchFor(page, name);
      if (!rows.includes(name)) {
        notFound.push(name);
        continue;
      }
      const before = asked.length;
      await page.click(`tr[data-name="${name}"] a.zone-name`);
      for (const deadline = Date.now() + 5000; asked.length === before && Date.now() < deadline;) await Bun.sleep(5);
    }
    await page.unroute(/\/zones\//);
    expect(notFound).toEqual([]);
    expect(asked).toEqual(names.map((n) => `/zones/${n}/`));
    // Every page asked for is that zone's page.
    const wrong: string[] = [];
    for (const path of asked) {
      const r = await fetch(`${base}${path}`);
      const h1 = /<h1[^>]*>([^<]*)<\/h1>/.exec(await r.text())?.[1];
      if (r.status !== 200 || `/zones/${h1}/` !== path) wrong.push(`${path}: ${r.status} ${h1}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  test("the home page's clocks name their zones as links to the zone pages", async () => {
    for (const [card, zone] of [["#your-clock", null], ["#zone-clock", "Asia/Kathmandu"], ["#place-clock", "Europe/London"]] as const) {
      await page.goto(`${base}/`);
      await page.waitForSelector(`${card}[data-state=live]`);
      const shown = (await page.getAttribute(card, "data-timezone"))!;
      if (zone) expect(shown).toBe(zone);
      await Promise.all([page.waitForURL(`${base}/zones/${shown}/`), page.click(`${card} [data-role=meta] a[href="/zones/${shown}/"]`)]);
      expect(await page.textContent("h1")).toBe(shown);
    }
    // The "Time in…" box: a place picked, its zone's name clicked.
    await page.goto(`${base}/`);
    await page.locator("#search-input").pressSequentially("kathmandu", { delay: 20 });
    await page.waitForSelector("#search-suggestions[data-query='kathmandu'] li");
    await page.press("#search-input", "Enter");
    await page.waitForSelector("#search-clock[data-timezone='Asia/Kathmandu'][data-state=live]");
    await Promise.all([page.waitForURL(`${base}/zones/Asia/Kathmandu/`), page.click("#search-clock [data-role=meta] a")]);
    expect(await page.textContent("h1")).toBe("Asia/Kathmandu");
  }, 120_000);
});

describe("the Timezones search ranks what a person means first", () => {
  // The cases: A-Z put America/Detroit first for "new york", nine Indiana zones before
  // Kolkata for "India", Araguaina first for "São Paulo", nothing for "sao paulo", and gave
  // Africa/Ceuta Madrid's cities.
  const CASES: [string, string][] = [["new york", "America/New_York"], ["India", "Asia/Kolkata"], ["São Paulo", "America/Sao_Paulo"],
    ["sao paulo", "America/Sao_Paulo"], ["Madrid", "Europe/Madrid"], ["London", "Europe/London"], ["kolkata", "Asia/Kolkata"]];

  for (const [query, expected] of CASES) {
    test(`"${query}": ${expected} first, as /timezone?q= has it; the query is in the address; a click opens its page`, async () => {
      await page.goto(`${base}/timezones/`);
      const rows = await searchFor(page, query);
      expect(rows[0]).toBe(expected);
      const api = (await (await fetch(`${base}/timezone?q=${encodeURIComponent(query)}`)).json()) as string[];
      expect(api[0]).toBe(rows[0]!);
      // The address carries the search: opened afresh, it shows the same rows.
      const address = page.url();
      expect(new URL(address).searchParams.get("q")).toBe(query);
      const fresh = await context.newPage();
      await fresh.goto(address);
      await fresh.waitForFunction(() => (globalThis as any).document.querySelectorAll("#zone-table tbody tr:not([hidden])").length < 597);
      expect(await fresh.inputValue("#zone-search")).toBe(query);
      expect(await shownRows(fresh)).toEqual(rows);
      await fresh.close();
      await Promise.all([page.waitForURL(`${base}/zones/${expected}/`), page.click(`#zone-table tbody tr:not([hidden]) >> nth=0 >> a.zone-name`)]);
      expect(await page.textContent("h1")).toBe(expected);
    }, 60_000);
  }

  test("a zone's cities are its own: Africa/Ceuta does not carry Madrid's, the Indiana zones not New York City", async () => {
    await page.goto(`${base}/timezones/`);
    expect(await page.textContent("tr[data-name='Africa/Ceuta'] td:nth-child(3)")).not.toContain("Madrid");
    expect(await page.textContent("tr[data-name='Europe/Madrid'] td:nth-child(3)")).toContain("Madrid");
    expect(await page.textContent("tr[data-name='America/Indiana/Marengo'] td:nth-child(3)")).not.toContain("New York");
    const rows = await searchFor(page, "new york");
    expect(rows.filter((r) => r.startsWith("America/Indiana/"))).toEqual([]);
  }, 60_000);
});
