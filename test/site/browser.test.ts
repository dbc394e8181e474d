// The website in a real browser (Debian's Chromium through playwright-core), served by the
// real service: every page loads without console errors or failed requests, at desktop
// and phone width (screenshots go to test-artifacts/screenshots/); the live clock shows
// the API's time; copy buttons fill the clipboard. Links and page weight: site-links.test.ts.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SCREENSHOTS, startSiteSession, VISITOR, visit as visitAt, type SiteSession } from "../support/site-browser.ts";
import { ROOT } from "../support/test-server.ts";
import { expectedClock, sourceRelease } from "../support/tzdb-reference.ts";

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

let session: SiteSession;
let base: string;
let browser: Browser;
let pages: string[];

beforeAll(async () => {
  session = await startSiteSession();
  ({ base, browser, pages } = session);
  // As the other site suites: run alone, this builds the test data and the site (about 2 min on a loaded machine).
}, 180_000);
afterAll(() => session?.close());

const visit = (context: BrowserContext, path: string) => visitAt(context, base, path);
const shotName = (path: string) => (path === "/" ? "home" : path.replace(/^\/|\/$/g, "").replaceAll("/", "-"));

describe("every page, desktop and phone", () => {
  test("loads with no console errors and no failed requests; screenshot saved", async () => {
    expect(pages).toContain("/");
    expect(pages).toContain("/attribution/");
    expect(pages.length).toBeGreaterThanOrEqual(12);
    const problems: string[] = [];
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport, extraHTTPHeaders: VISITOR });
      for (const path of pages) {
        const v = await visit(context, path);
        if (v.status !== 200) problems.push(`${path}: HTTP ${v.status}`);
        problems.push(...v.problems.map((p) => `${path} (${name}): ${p}`));
        await v.page.screenshot({ path: join(SCREENSHOTS, `${shotName(path)}-${name}.png`), fullPage: name === "phone" });
        // Readable on a phone: nothing wider than the screen.
        // (The callback runs in the page; this project's types describe Bun, not the DOM.)
        const overflow = await v.page.evaluate(() => { const w = globalThis as any; return w.document.documentElement.scrollWidth - w.innerWidth as number; });
        if (overflow > 1) problems.push(`${path} (${name}): ${overflow}px wider than the viewport`);
        await v.page.close();
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  test("an unknown site path shows the site's 404 page with status 404", async () => {
    const context = await browser.newContext({ extraHTTPHeaders: VISITOR });
    const page = await context.newPage();
    const response = await page.goto(`${base}/no-such-page/`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Not found");
    expect(await page.locator("header .brand").textContent()).toBe("zonetime");
    await page.screenshot({ path: join(SCREENSHOTS, "404-desktop.png") });
    await context.close();
  }, 60_000);
});

describe("live parts", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await browser.newContext({ extraHTTPHeaders: VISITOR, permissions: ["clipboard-read", "clipboard-write"] });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  const seconds = (text: string) => {
    const m = /(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)/.exec(text)!;
    return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) / 1000;
  };
  const apiLocalSeconds = async (path: string) => {
    const t = (await (await fetch(`${base}${path}`, { headers: VISITOR })).json()) as { datetime: string };
    return seconds(t.datetime.replace("T", " "));
  };

  test("the live clocks show the time the API returns: for the visitor's address and for a chosen zone", async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector("#zone-clock[data-state=live]");
    await page.waitForSelector("#your-clock[data-state=live]");
    await Bun.sleep(600);
    const zoneShown = seconds((await page.textContent("#zone-clock [data-role=time]"))!);
    expect(Math.abs(zoneShown - (await apiLocalSeconds("/timezone/Asia/Kathmandu")))).toBeLessThanOrEqual(2);
    expect(await page.getAttribute("#zone-clock", "data-timezone")).toBe("Asia/Kathmandu");
    const yoursShown = seconds((await page.textContent("#your-clock [data-role=time]"))!);
    expect(Math.abs(yoursShown - (await apiLocalSeconds("/ip")))).toBeLessThanOrEqual(2);
    expect(await page.textContent("#your-clock [data-role=meta]")).toContain("from your address 8.8.8.8");
    // Another zone, chosen by the visitor.
    await page.fill("#zone-input", "America/Havana");
    await page.dispatchEvent("#zone-input", "change");
    await page.waitForSelector("#zone-clock[data-timezone='America/Havana']");
    await Bun.sleep(600);
    const havana = seconds((await page.textContent("#zone-clock [data-role=time]"))!);
    expect(Math.abs(havana - (await apiLocalSeconds("/timezone/America/Havana")))).toBeLessThanOrEqual(2);
    // The clock's line as zdump reads data/tzdb now (2026f in November 2026: UTC-04:00 · CDT · DST).
    const clock = await expectedClock("America/Havana", Math.floor(Date.now() / 1000));
    expect(await page.textContent("#zone-clock [data-role=meta]"))
      .toContain(`America/Havana · UTC${clock.utc_offset} · ${clock.abbreviation}${clock.dst ? " · DST" : ""}`);
  }, 60_000);

  test("the 'time in' box suggests places from /places as the visitor types; a pick shows the live time there", async () => {
    await page.goto(`${base}/`);
    // Typed as a person types: a prefix of the last word, no accents.
    await page.locator("#search-input").pressSequentially("sao pau", { delay: 30 });
    await page.waitForSelector("#search-suggestions[data-query='sao pau'] li");
    const first = await page.textContent("#search-suggestions li");
    expect(first).toBe("São Paulo, Brazil · America/Sao_Paulo");
    // The suggestions are /places' answers, in its order.
    const api = (await (await fetch(`${base}/places?q=sao%20pau&limit=8`)).json()) as { name: string; timezone: string }[];
    const shown = await page.locator("#search-suggestions li").allTextContents();
    expect(shown.length).toBe(api.length);
    shown.forEach((text, i) => expect(text.startsWith(api[i]!.name) && text.endsWith(api[i]!.timezone)).toBe(true));
    await page.click("#search-suggestions li >> nth=0");
    await page.waitForSelector("#search-clock[data-timezone='America/Sao_Paulo'][data-state=live]");
    expect(await page.inputValue("#search-input")).toBe("São Paulo, Brazil");
    await Bun.sleep(600);
    const time = seconds((await page.textContent("#search-clock [data-role=time]"))!);
    expect(Math.abs(time - (await apiLocalSeconds("/timezone/America/Sao_Paulo")))).toBeLessThanOrEqual(2);
    expect(await page.textContent("#search-clock [data-role=meta]")).toStartWith("São Paulo, Brazil · America/Sao_Paulo · UTC");
    // Keyboard: Enter alone takes the first suggestion.
    await page.fill("#search-input", "");
    await page.locator("#search-input").pressSequentially("sydney", { delay: 30 });
    await page.press("#search-input", "Enter");
    await page.waitForSelector("#search-clock[data-timezone='Australia/Sydney'][data-state=live]");
    expect(await page.inputValue("#search-input")).toBe("Sydney, New South Wales, Australia");
    // Arrows move through the list; a place with no match shows none.
    await page.fill("#search-input", "");
    await page.locator("#search-input").pressSequentially("london", { delay: 30 });
    await page.waitForSelector("#search-suggestions[data-query='london'] li >> nth=1");
    await page.press("#search-input", "ArrowDown");
    await page.press("#search-input", "ArrowDown");
    await page.press("#search-input", "Enter");
    await page.waitForSelector("#search-clock[data-timezone='America/Toronto'][data-state=live]");
    await page.fill("#search-input", "qqqqxzzz");
    await page.dispatchEvent("#search-input", "input");
    await page.waitForSelector("#search-suggestions[data-query='qqqqxzzz']", { state: "attached" });
    expect(await page.isHidden("#search-suggestions")).toBe(true);
  }, 60_000);

  test("where the visitor's address has no location, the clock uses the zone the browser reports", async () => {
    const local = await browser.newContext({ timezoneId: "Asia/Tokyo" }); // no X-Forwarded-For: loopback, no location
    const p = await local.newPage();
    await p.goto(`${base}/`);
    await p.waitForSelector("#your-clock[data-state=live]");
    expect(await p.getAttribute("#your-clock", "data-timezone")).toBe("Asia/Tokyo");
    expect(await p.textContent("#your-clock [data-role=meta]")).toContain("the zone your browser reports");
    await local.close();
  }, 60_000);

  test("the place form: typed coordinates show the live time there, bad ones the API's message, a disputed place its other zone", async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector("#place-clock[data-timezone='Europe/London']");
    await page.fill("#place-lat", "27.7172");
    await page.fill("#place-lng", "85.3240");
    await page.click("#place-form button[type=submit]");
    await page.waitForSelector("#place-clock[data-timezone='Asia/Kathmandu'][data-state=live]");
    await Bun.sleep(600);
    const shown = seconds((await page.textContent("#place-clock [data-role=time]"))!);
    expect(Math.abs(shown - (await apiLocalSeconds("/coordinates/27.7172,85.3240")))).toBeLessThanOrEqual(2);
    expect(await page.textContent("#place-clock [data-role=meta]")).toBe("Asia/Kathmandu · UTC+05:45 · +0545");
    await page.fill("#place-lat", "91");
    await page.press("#place-lat", "Enter");
    await page.waitForSelector("#place-clock[data-state=error]");
    expect(await page.textContent("#place-clock [data-role=meta]")).toBe("malformed coordinates: latitude 91 is outside -90..90");
    await page.fill("#place-lat", "38.7503");
    await page.fill("#place-lng", "85.9829");
    await page.press("#place-lng", "Enter");
    await page.waitForSelector("#place-clock[data-timezone='Asia/Urumqi'][data-state=live]");
    expect(await page.textContent("#place-clock [data-role=meta]")).toContain("the data also gives Asia/Shanghai");
  }, 60_000);

  test("'use my location' asks the browser only when clicked, then shows the time at that position", async () => {
    const here = await browser.newContext({ geolocation: { latitude: 35.6762, longitude: 139.6503 }, permissions: ["geolocation"] });
    const p = await here.newPage();
    // Count the page's requests for the position.
    await p.addInitScript(() => {
      const g = (globalThis as any).navigator.geolocation;
      const original = g.getCurrentPosition.bind(g);
      (globalThis as any).positionRequests = 0;
      g.getCurrentPosition = (...args: unknown[]) => {
        (globalThis as any).positionRequests++;
        return original(...args);
      };
    });
    await p.goto(`${base}/`);
    await p.waitForSelector("#place-clock[data-state=live]");
    await Bun.sleep(300);
    expect(await p.evaluate(() => (globalThis as any).positionRequests)).toBe(0);
    await p.click("#place-locate");
    await p.waitForSelector("#place-clock[data-timezone='Asia/Tokyo'][data-state=live]");
    expect(await p.evaluate(() => (globalThis as any).positionRequests)).toBe(1);
    expect(await p.inputValue("#place-lat")).toBe("35.676200");
    expect(await p.inputValue("#place-lng")).toBe("139.650300");
    await here.close();
  }, 60_000);

  test("the home page asks /ip once, reads the answer and reaches network idle", async () => {
    for (const visitor of [VISITOR, {}]) { // with a location, and without one (loopback: the browser's zone instead)
      const fresh = await browser.newContext({ extraHTTPHeaders: visitor, timezoneId: "Asia/Tokyo" });
      const p = await fresh.newPage();
      const asked: string[] = [];
      const finished: string[] = [];
      p.on("request", (r) => asked.push(new URL(r.url()).pathname));
      p.on("requestfinished", (r) => finished.push(new URL(r.url()).pathname));
      await p.goto(`${base}/`, { waitUntil: "networkidle", timeout: 15_000 });
      await p.waitForSelector("#your-clock[data-state=live]");
      await Bun.sleep(1000);
      const where = "X-Forwarded-For" in visitor ? "with a location" : "without a location";
      expect({ where, ip: asked.filter((path) => path === "/ip").length }).toEqual({ where, ip: 1 });
      expect({ where, ipRead: finished.filter((path) => path === "/ip").length }).toEqual({ where, ipRead: 1 });
      await fresh.close();
    }
  }, 60_000);

  test("the 'Your clock' panel finds a shifted browser clock within the bound it states, and draws the samples", async () => {
    for (const shift of [2500, -1200, 0]) {
      const shifted = await browser.newContext({ extraHTTPHeaders: VISITOR });
      // The visitor's clock, shifted: Date.now() and the performance timeline's origin.
      await shifted.addInitScript((ms: number) => {
        const g = globalThis as any;
        const realNow = g.Date.now.bind(g.Date);
        g.Date.now = () => realNow() + ms;
        const origin = g.performance.timeOrigin;
        Object.defineProperty(g.Performance.prototype, "timeOrigin", { get: () => origin + ms });
      }, shift);
      const p = await shifted.newPage();
      await p.goto(`${base}/`);
      await p.waitForSelector("#clock-offset[data-state=done]", { timeout: 20_000 });
      // offset: what to add to the visitor's clock to read ours; a clock ahead by `shift` needs -shift.
      const offset = Number(await p.getAttribute("#clock-offset", "data-offset-ms"));
      const bound = Number(await p.getAttribute("#clock-offset", "data-bound-ms"));
      expect({ shift, within: Math.abs(offset + shift) <= bound }).toEqual({ shift, within: true });
      expect(bound).toBeLessThan(250);
      const verdict = (await p.textContent("#clock-offset [data-role=verdict]"))!;
      if (shift === 0) {
        expect(verdict).toMatch(/^your clock is right \(± \d+\.\d\d s\)$/);
      } else {
        const m = /^your clock is (\d+\.\d\d) s (ahead|behind) \(± (\d+\.\d\d) s\)$/.exec(verdict);
        expect(m).not.toBeNull();
        const shown = Number(m![1]) * (m![2] === "ahead" ? 1 : -1);
        expect({ verdict, within: Math.abs(shown - shift / 1000) <= Number(m![3]) }).toEqual({ verdict, within: true });
      }
      expect(await p.locator("#clock-offset svg [data-sample]").count()).toBe(8);
      expect(await p.locator("#clock-offset svg [data-best=true]").count()).toBe(1);
      if (shift === 2500) await p.screenshot({ path: join(SCREENSHOTS, "home-clock-offset.png") });
      await shifted.close();
    }
  }, 90_000);

  test("the clock-offset guide shows the functions the tests run, as they are in site/src/lib", async () => {
    await page.goto(`${base}/guides/clock-offset/`);
    const blocks = await page.$$eval("pre code", (codes) => codes.map((c) => c.textContent ?? ""));
    for (const file of ["clock-offset.js", "clock_offset.py"]) {
      expect(blocks).toContain(readFileSync(join(ROOT, "site", "src", "lib", file), "utf8"));
    }
  }, 60_000);

  test("the API reference and the guides describe /clock and /sync", async () => {
    await page.goto(`${base}/docs/`);
    expect(await page.textContent("#getWorldClock h2")).toBe("GET /clock");
    expect(await page.textContent("#sync h2")).toBe("GET /sync");
    expect(await page.textContent("#sync-answer")).toContain("t2");
    await page.goto(`${base}/guides/`);
    expect(await page.locator("a[href='/guides/world-clock/'], a[href='/guides/clock-offset/']").count()).toBe(2);
    await page.goto(`${base}/guides/world-clock/`);
    expect(await page.textContent("main")).toContain("/clock?zones=America/New_York,Europe/London,Asia/Kathmandu");
  }, 60_000);

  test("copy buttons put the snippet on the clipboard", async () => {
    await page.goto(`${base}/attribution/`);
    for (const id of ["snippet-html", "snippet-markdown", "snippet-text"]) {
      await page.click(`button[data-copy=${id}]`);
      const copied: string = await page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
      expect(copied).toBe((await page.textContent(`#${id}`))!);
      expect(copied.length).toBeGreaterThan(10);
    }
    expect(await page.textContent("#snippet-html")).toStartWith('<a href="');
    expect(await page.textContent("#credit-tzdb")).toBe(sourceRelease());
    const boundaries = (await page.textContent("#credit-boundaries"))!.replace(/\s+/g, " ");
    expect(boundaries).toContain("timezone-boundary-builder by Evan Siroky, release 2026d");
    expect(boundaries).toContain("Open Database License (ODbL)");
  }, 60_000);

  test("the timezone browser finds zones and shows their offsets from the API", async () => {
    await page.goto(`${base}/timezones/`);
    await page.fill("#zone-search", "asia/kathmandu");
    await page.waitForFunction(() => (globalThis as any).document.querySelector("tr[data-name='Asia/Kathmandu'] .now")?.textContent !== "");
    expect(await page.textContent("tr[data-name='Asia/Kathmandu'] .now")).toBe("UTC+05:45 +0545");
    expect(await page.textContent("tr[data-name='Asia/Kathmandu'] td:nth-child(2)")).toBe("Nepal");
    expect(await page.locator("#zone-table tbody tr:not([hidden])").count()).toBe(1);
  }, 60_000);

  test("the timezone browser names zones in the browser's language (the API's timezone_name)", async () => {
    for (const [locale, expected] of [["de-DE", "Nepalesische Zeit"], ["ja-JP", "ネパール時間"], ["en-US", "Nepal Time"]] as const) {
      const context = await browser.newContext({ locale, extraHTTPHeaders: VISITOR });
      const localized = await context.newPage();
      await localized.goto(`${base}/timezones/`);
      await localized.fill("#zone-search", "asia/kathmandu");
      await localized.waitForFunction(() => (globalThis as any).document.querySelector("tr[data-name='Asia/Kathmandu'] .local")?.textContent !== "");
      const api = (await (await fetch(`${base}/timezone/Asia/Kathmandu?lang=${locale}`)).json()) as { timezone_name: string };
      expect(api.timezone_name).toBe(expected);
      expect(await localized.textContent("tr[data-name='Asia/Kathmandu'] .local")).toBe(expected);
      expect(await localized.getAttribute("tr[data-name='Asia/Kathmandu'] .local", "lang")).toBe(locale);
      await context.close();
    }
  }, 60_000);

  test("the timezone browser's next change is the one /timezone/{name}/info names", async () => {
    await page.goto(`${base}/timezones/`);
    await page.fill("#zone-search", "america/new_york");
    await page.waitForFunction(() => (globalThis as any).document.querySelector("tr[data-name='America/New_York'] .now")?.textContent !== "");
    const info = (await (await fetch(`${base}/timezone/America/New_York/info`)).json()) as { next_transition: { local_before: string; local_at: string; utc_offset: string; abbreviation: string; dst: boolean } };
    const next = info.next_transition;
    // In New York's wall-clock words (test/site/timezones-next-change.test.ts checks the wording whole).
    const [y, m, d] = next.local_before.slice(0, 10).split("-").map(Number) as [number, number, number];
    const day = `${d} ${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][m - 1]} ${y}`;
    const shown = (await page.textContent("tr[data-name='America/New_York'] .next"))!;
    expect(shown).toContain(`${day}, ${next.local_before.slice(11, 16)} → ${next.local_at.slice(11, 16)} (clocks go `);
    expect(shown).toEndWith(`, then UTC${next.utc_offset} ${next.abbreviation}${next.dst ? " (DST)" : ""}`);
    expect(await page.textContent("tr[data-name='Asia/Kathmandu'] .next")).toBe("none within two years");
  }, 60_000);

  test("the status page shows what /health says", async () => {
    await page.goto(`${base}/status/`);
    await page.waitForSelector("#status-table[data-state=live]");
    expect(await page.textContent("[data-field=status]")).toBe("ready");
    expect(await page.textContent("[data-field=tzdb]")).toStartWith(sourceRelease());
  }, 60_000);
});
