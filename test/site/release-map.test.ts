// A release page's map in a real browser (Debian's Chromium) on the real service: the zones lit
// on the map, with the names listed beside it as having no area, are exactly the names
// GET /tzdb/{release}/changes says the release changed or added, each lit in the colour of what
// it changed (present or future as of the release's date, or only the past) and drawn as itself or as the zone /info
// names as its canonical one; every lit zone is a link to a zone page, named with its names;
// the keyboard reaches them in one Tab stop, arrows move between them, Enter follows the link.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
let context: BrowserContext;
beforeAll(async () => {
  session = await startSiteSession();
  context = await session.browser.newContext({ extraHTTPHeaders: VISITOR, viewport: { width: 1280, height: 800 } });
}, 300_000);
afterAll(async () => {
  await context?.close();
  await session?.close();
}, 30_000);

const api = async <T>(path: string): Promise<T> => (await (await fetch(`${session.base}${path}`)).json()) as T;

interface Changes { date: string; added: string[]; changed: { timezone: string; windows: { end: string }[] }[] }
interface Lit { zone: string; names: string[]; kind: string; href: string; label: string; role: string | null; tabindex: string | null; fill: string }

async function openRelease(release: string): Promise<Page> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
  await page.goto(`${session.base}/releases/${release}/`);
  await page.waitForSelector("#release-map[data-state=ready]", { timeout: 30_000 });
  expect(problems).toEqual([]);
  return page;
}

const litZones = (page: Page) => page.$$eval("#release-map svg a", (links: any[]) => links.map((a) => ({
  zone: a.firstElementChild.dataset.zone, names: a.dataset.names.split(" "), kind: a.dataset.kind, href: a.getAttribute("href"),
  label: a.getAttribute("aria-label"), role: a.getAttribute("role"), tabindex: a.getAttribute("tabindex"), fill: a.firstElementChild.getAttribute("fill"),
})) as Lit[]);

// 2026b: one zone and its link (Canada/Pacific, drawn as America/Vancouver); 2025c: Baja
// California's names, past only; 2022b: a hundred names, past and future, one added; 2010b:
// from 2006-2012.
const RELEASES = ["2026b", "2025c", "2022b", "2010b"];

describe("a release page's map", () => {
  test.each(RELEASES)("%s: the lit zones and the names beside the map are exactly what /tzdb/{release}/changes lists, each where /info puts it", async (release) => {
    const changes = await api<Changes>(`/tzdb/${release}/changes`);
    // As the page's lists (and the feeds) say it: present or future when a window ends after the
    // release's date (the API's own `future` is as of now).
    const released = Date.parse(`${changes.date}T00:00:00Z`);
    const expected = new Map<string, string>([
      ...changes.changed.map((c) => [c.timezone, c.windows.some((w) => Date.parse(w.end) > released) ? "future" : "past"] as [string, string]),
      ...changes.added.map((n) => [n, "added"] as [string, string]),
    ]);
    expect(expected.size).toBeGreaterThan(0);
    const page = await openRelease(release);
    const lit = await litZones(page);
    const offMap = await page.$$eval("#release-map-off [data-name]", (spans: any[]) => spans.map((s) => [s.dataset.name, s.dataset.kind] as [string, string])).catch(() => [] as [string, string][]);
    const drawn = new Set(await page.$$eval("#release-map svg [data-zone]", (els: any[]) => els.map((e) => e.dataset.zone as string)));
    const shown = [...lit.flatMap((z) => z.names), ...offMap.map((n) => n[0])];
    expect({ release, shown: [...shown].sort() }).toEqual({ release, shown: [...expected.keys()].sort() });
    // Each name once, and the kind the API's windows give it (added names: added).
    expect(new Set(shown).size).toBe(shown.length);
    for (const [name, kind] of offMap) expect({ name, kind }).toEqual({ name, kind: expected.get(name)! });
    for (const z of lit) {
      // A lit zone is drawn as one of its names or as the zone they name today.
      for (const name of z.names) {
        const info = await api<{ canonical: string }>(`/timezone/${name}/info`);
        expect({ name, drawnAs: z.zone }).toEqual({ name, drawnAs: z.zone === name ? name : info.canonical });
      }
      // Its fill is its strongest kind, named in the legend; its link, the zone page of its first name.
      const kinds = z.names.map((n) => expected.get(n)!);
      expect({ zone: z.zone, kind: z.kind }).toEqual({ zone: z.zone, kind: ["future", "added", "past"].find((k) => kinds.includes(k))! });
      expect(z.href).toBe(`/zones/${z.names[0]}/`);
      expect(z.role).toBe("link");
      // Its accessible name gives each of its names and what the release did to it.
      for (const name of z.names) expect(z.label).toContain(`${name}: ${{ future: "present or future changed", past: "past changed", added: "name added" }[expected.get(name)!]}`);
    }
    // A name beside the map has no area on it, neither its own nor its canonical zone's.
    for (const [name] of offMap) {
      const { canonical } = await api<{ canonical: string }>(`/timezone/${name}/info`);
      expect({ name, drawn: drawn.has(name) || drawn.has(canonical) }).toEqual({ name, drawn: false });
    }
    // Lit zones stand apart: each kind one colour, the kinds different colours, unchanged zones another.
    const fills = new Map(lit.map((z) => [z.kind, z.fill]));
    for (const z of lit) expect(z.fill).toBe(fills.get(z.kind)!);
    expect(new Set(fills.values()).size).toBe(fills.size);
    const litNames = new Set(lit.map((z) => z.zone));
    const unlit = (await page.$$eval("#release-map svg [data-zone]", (els: any[]) => els.map((e) => [e.dataset.zone, e.getAttribute("fill")] as [string, string])))
      .filter(([zone]) => !litNames.has(zone));
    expect(unlit.length).toBeGreaterThan(300);
    for (const f of new Set(unlit.map((u) => u[1]))) expect([...fills.values()]).not.toContain(f);
    // The accessible names tell the zones apart.
    expect(new Set(lit.map((z) => z.label)).size).toBe(lit.length);
    await page.close();
  }, 120_000);

  test("the keyboard: one Tab stop into the map lands on a lit zone, arrows move between lit zones only, Enter opens its zone page", async () => {
    const page = await openRelease("2022b");
    const lit = await litZones(page);
    expect(lit.filter((z) => z.tabindex === "0").length).toBe(1);
    expect(lit.filter((z) => z.tabindex !== "0" && z.tabindex !== "-1")).toEqual([]);
    // The link just before the map, then Tab.
    await page.focus("main p.muted a[href^='/tzdb/']");
    await page.keyboard.press("Tab");
    const focused = () => page.evaluate(() => {
      const e = (globalThis as any).document.activeElement;
      return { tag: e.tagName as string, href: e.getAttribute("href") as string | null, label: e.getAttribute("aria-label") as string | null };
    });
    const first = await focused();
    expect(first.tag).toBe("a");
    const byHref = new Map(lit.map((z) => [z.href, z]));
    expect(byHref.get(first.href!)?.label).toBe(first.label!);
    // The tip shows the same to a sighted keyboard user.
    expect(await page.textContent("#release-map .tip")).toBe(first.label);
    const seen = new Set([first.href]);
    for (const key of ["ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "End"]) {
      await page.keyboard.press(key);
      const now = await focused();
      expect(byHref.has(now.href!)).toBe(true);
      seen.add(now.href);
    }
    expect(seen.size).toBeGreaterThan(2);
    // Tab leaves the map in one step, to its zoom buttons.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.dataset.zoom)).toBe("in");
    await page.keyboard.press("Shift+Tab");
    const chosen = await focused();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${session.base}${chosen.href}`);
    expect(await page.textContent("h1")).toContain(lit.find((z) => z.href === chosen.href)!.names[0]!);
    await page.close();
  }, 60_000);

  test("the oldest release, with nothing to compare, has no map", async () => {
    const { releases } = await api<{ releases: { release: string }[] }>("/tzdb");
    const page = await context.newPage();
    await page.goto(`${session.base}/releases/${releases.at(-1)!.release}/`);
    expect(await page.$("#release-map")).toBeNull();
    await page.close();
  });
});
