// Issue 34's phone and keyboard checks, in Chromium: at 390x844 nothing is cut off without
// a way to scroll it (and every scroller takes keyboard focus), the zone chart shows now
// without scrolling, with text that can be read and half-hour offsets labelled; on every
// page Tab reaches every control, the skip link comes first, the nav marks the section,
// the copy buttons are named apart, and the charts' text has the contrast body text needs.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
let base: string;
let browser: Browser;
beforeAll(async () => {
  session = await startSiteSession();
  ({ base, browser } = session);
}, 180_000);
afterAll(() => session?.close(), 30_000);

const ZONES = ["/zones/Europe/London/", "/zones/America/Havana/", "/zones/Asia/Kolkata/"];
const PAGES = ["/", "/map/", ...ZONES, "/timezones/", "/docs/", "/guides/esp32-clock/", "/attribution/"];

async function open(viewport: { width: number; height: number }, path: string, colorScheme: "light" | "dark" = "light"): Promise<Page> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: VISITOR, colorScheme });
  const page = await context.newPage();
  await page.goto(`${base}${path}`);
  await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => {});
  return page;
}
const close = (page: Page) => page.context().close();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

describe("on a phone (390x844)", () => {
  test("nothing is cut off unless it scrolls, and every scroller takes keyboard focus", async () => {
    for (const path of PAGES) {
      const page = await open(PHONE, path);
      const cut = await page.evaluate(() => {
        const g = globalThis as any;
        const out: string[] = [];
        for (const e of g.document.querySelectorAll("main *")) {
          if (e.closest("details:not([open])") || e.closest("[hidden]") || e.closest("svg")) continue;
          const s = g.getComputedStyle(e);
          if (e.scrollWidth <= e.clientWidth + 1) continue;
          if (e.getBoundingClientRect().width <= 1) continue; // hidden on purpose, for screen readers alone (a table's header row)
          const scrolls = s.overflowX === "auto" || s.overflowX === "scroll";
          if (s.overflowX === "visible") continue; // spills visibly: caught by the page-width check below
          if (!scrolls) out.push(`${e.tagName}.${e.className}: clipped (${e.scrollWidth} > ${e.clientWidth})`);
          else if (e.tabIndex < 0) out.push(`${e.tagName}.${e.className}: scrolls, but the keyboard cannot reach it`);
        }
        const wider = g.document.documentElement.scrollWidth - g.innerWidth;
        if (wider > 1) out.push(`the page is ${wider}px wider than the screen`);
        return out;
      });
      expect({ path, cut }).toEqual({ path, cut: [] });
      await close(page);
    }
  }, 120_000);

  test("each zone chart shows now without scrolling, its text at least 10 px and inside the chart, half-hour offsets labelled", async () => {
    for (const path of [...ZONES, "/zones/Pacific/Chatham/"]) {
      const page = await open(PHONE, path);
      const chart = await page.evaluate(() => {
        const g = globalThis as any;
        const svg = g.document.querySelector("#offset-chart svg");
        const now = svg.querySelector("g.now line").getBoundingClientRect();
        const box = svg.getBoundingClientRect();
        const heights = [...svg.querySelectorAll("text")].map((t: any) => t.getBoundingClientRect().height);
        const group = svg.querySelector("g.now").dataset;
        const textRight = Math.max(...[...svg.querySelectorAll("text")].map((t: any) => t.getBoundingClientRect().right));
        return { nowX: now.x, left: box.left, right: box.right, minText: Math.min(...heights), textRight, offHour: [...svg.querySelectorAll("text.off-hour")].map((t: any) => t.textContent),
          from: Number(group.from), to: Number(group.to), x0: Number(group.x0), x1: Number(group.x1), viewWidth: svg.viewBox.baseVal.width };
      });
      expect({ path, fits: chart.left >= 0 && chart.right <= PHONE.width }).toEqual({ path, fits: true });
      expect({ path, nowOnScreen: chart.nowX > chart.left && chart.nowX < chart.right }).toEqual({ path, nowOnScreen: true });
      // The line stands at the reader's now (the page moved it from the build's).
      const scale = (chart.right - chart.left) / chart.viewWidth;
      const expectedX = chart.left + scale * (chart.x0 + ((Date.now() / 1000 - chart.from) / (chart.to - chart.from)) * (chart.x1 - chart.x0));
      expect(Math.abs(chart.nowX - expectedX)).toBeLessThan(2);
      expect({ path, minText: chart.minText >= 10 }).toEqual({ path, minText: true });
      // No label runs past the chart's right edge (Kolkata's "+5:30" was cut there).
      expect({ path, cut: chart.textRight > chart.right + 0.5 }).toEqual({ path, cut: false });
      if (path.includes("Kolkata")) expect(chart.offHour).toEqual(["+5:30"]);
      else if (path.includes("Chatham")) expect(chart.offHour.sort()).toEqual(["+12:45", "+13:45"]);
      else expect(chart.offHour).toEqual([]);
      await close(page);
    }
  }, 60_000);

  test("a zone without DST shows no DST key; the full history is one click away", async () => {
    const page = await open(PHONE, "/zones/Asia/Kolkata/");
    expect(await page.locator("#offset-chart .key.dst").count()).toBe(0);
    expect(await page.isVisible("#full-chart svg")).toBe(false);
    await page.click("#full-chart summary");
    expect(await page.isVisible("#full-chart svg")).toBe(true);
    expect(await page.textContent("#full-chart svg title")).toMatch(/, 1970 to \d{4}$/);
    await close(page);
    const london = await open(PHONE, "/zones/Europe/London/");
    expect(await london.locator("#offset-chart .key.dst").count()).toBe(1);
    // The next change in the words of a London wall clock.
    expect(await london.textContent("#next-change")).toMatch(/^Next change: (Sun \d+ (Mar|Oct) \d{4}, (01:00 → 02:00 \(clocks go forward|02:00 → 01:00 \(clocks go back) 1 hour\)) local time\.$/);
    await close(london);
  }, 60_000);

  test("the nav's links are at least 44 px tall", async () => {
    const page = await open(PHONE, "/guides/at/");
    const heights = await page.$$eval("header nav a", (as: any[]) => as.map((a) => a.getBoundingClientRect().height));
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(44);
    await close(page);
  }, 30_000);
});

describe("keyboard and names", () => {
  test("Tab reaches every control of every page, the skip link first", async () => {
    for (const path of PAGES) {
      const page = await open(DESKTOP, path);
      const controls = await page.evaluate(() => {
        const g = globalThis as any;
        let n = 0;
        for (const e of g.document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")) {
          const hidden = e.closest("[hidden]") || (e.closest("details:not([open])") && e.tagName !== "SUMMARY") || e.getClientRects().length === 0 || e.tabIndex < 0 || e.disabled;
          if (!hidden) e.dataset.control = String(n++);
        }
        return n;
      });
      const reached = new Set<string>();
      let first: string | null = null;
      for (let i = 0; i < controls + 20 && reached.size < controls; i++) {
        await page.keyboard.press("Tab");
        const id = await page.evaluate(() => (globalThis as any).document.activeElement?.dataset?.control ?? null);
        if (i === 0) first = await page.evaluate(() => (globalThis as any).document.activeElement?.className ?? null);
        if (id !== null) reached.add(id);
      }
      expect({ path, first }).toEqual({ path, first: "skip" });
      expect({ path, reached: reached.size }).toEqual({ path, reached: controls });
      await close(page);
    }
  }, 180_000);

  test("the skip link moves focus to the content", async () => {
    const page = await open(DESKTOP, "/timezones/");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe("main");
    await close(page);
  }, 30_000);

  test("the nav marks the page's section; buttons on a page are named apart, each saying what it copies", async () => {
    for (const [path, section] of [["/guides/at/", "Guides"], ["/zones/Europe/London/", "Timezones"], ["/docs/", "API reference"], ["/", "Home"]] as const) {
      const page = await open(DESKTOP, path);
      expect({ path, current: await page.$$eval("header nav a[aria-current]", (as: any[]) => as.map((a) => a.textContent)) }).toEqual({ path, current: [section] });
      await close(page);
    }
    for (const path of [...ZONES, "/", "/attribution/"]) {
      const page = await open(DESKTOP, path);
      const names = await page.$$eval("main button", (bs: any[]) => bs.map((b) => (b.getAttribute("aria-label") ?? b.textContent).trim()));
      expect({ path, unique: new Set(names).size === names.length }).toEqual({ path, unique: true });
      const copy = await page.$$eval("button[data-copy]", (bs: any[]) => bs.map((b) => b.getAttribute("aria-label")));
      for (const name of copy) expect(name).toMatch(/^Copy \S.{2,}/);
      await close(page);
    }
  }, 60_000);

  test("chart text has 4.5:1 contrast with the page, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      for (const path of ZONES) {
        const page = await open(DESKTOP, path, scheme);
        const low = await page.evaluate(() => {
          const g = globalThis as any;
          const rgb = (c: string) => c.match(/[\d.]+/g)!.slice(0, 3).map(Number);
          const lum = (c: number[]) => c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i]!, 0);
          const bg = lum(rgb(g.getComputedStyle(g.document.body).backgroundColor));
          const out: string[] = [];
          for (const t of g.document.querySelectorAll("#offset-chart svg text")) {
            const fg = lum(rgb(g.getComputedStyle(t).fill));
            const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
            if (ratio < 4.5) out.push(`${t.textContent} ${ratio.toFixed(2)}`);
          }
          return out;
        });
        expect({ scheme, path, low }).toEqual({ scheme, path, low: [] });
        await close(page);
      }
    }
  }, 60_000);
});
