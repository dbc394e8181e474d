// Issue 34's map, in Chromium against the real service: zoom and pan by mouse, touch and
// keyboard; colours that tell neighbouring offsets apart and labels that give each offset (as
// the API has it now), readable over any shade; the night side where the sun is down; the
// local time on hover, tap and focus; every zone a keyboard stop with a unique name.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
beforeAll(async () => {
  session = await startSiteSession();
}, 180_000);
afterAll(() => session?.close(), 30_000);

async function openMap(viewport = { width: 1366, height: 900 }, touch = false): Promise<Page> {
  const context = await session.browser.newContext({ viewport, hasTouch: touch, isMobile: touch, extraHTTPHeaders: VISITOR });
  const page = await context.newPage();
  await page.goto(`${session.base}/map/`);
  await page.waitForSelector("#zone-map[data-state=ready]", { timeout: 30_000 });
  return page;
}
const zoomOf = async (page: Page) => Number(await page.getAttribute("#zone-map svg", "data-zoom"));
const viewBox = async (page: Page) => (await page.getAttribute("#zone-map svg", "viewBox"))!.split(" ").map(Number);
/** Where (lon, lat) is drawn, in client pixels. */
const at = (page: Page, lon: number, lat: number) => page.$eval("#zone-map", (e: any, p: number[]) => e.project(p[0], p[1]), [lon, lat]) as Promise<[number, number]>;
const api = async (zone: string) => (await (await fetch(`${session.base}/timezone/${zone}`, { headers: VISITOR })).json()) as { utc_offset: string; abbreviation: string; datetime: string };
/** "+05:30" -> "+5:30", "-03:00" -> "−3", "+00:00" -> "UTC": the map's label for an API offset. */
const labelFor = (offset: string) => {
  if (offset === "+00:00") return "UTC";
  const [h, m] = offset.slice(1).split(":").map(Number);
  return `${offset[0] === "-" ? "−" : "+"}${h}${m ? `:${String(m).padStart(2, "0")}` : ""}`;
};
/** Minutes between two "hh:mm" readings, around midnight. */
const minutesApart = (a: string, b: string) => {
  const [x, y] = [a, b].map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)));
  return Math.min(Math.abs(x! - y!), 1440 - Math.abs(x! - y!));
};

describe("zoom and pan", () => {
  test("mouse: the wheel zooms about the pointer, a drag pans and asks nothing, the buttons zoom and reset", async () => {
    const page = await openMap();
    expect(await zoomOf(page)).toBe(1);
    const [x, y] = await at(page, 10, 50);
    await page.mouse.move(x, y);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(() => Number((globalThis as any).document.querySelector("#zone-map svg").dataset.zoom) > 1.5);
    // About the pointer: the point under it stays within a few pixels.
    const [x2, y2] = await at(page, 10, 50);
    expect(Math.hypot(x2 - x, y2 - y)).toBeLessThan(3);
    const clicks = await page.getAttribute("#zone-map", "data-clicks");
    const before = await viewBox(page);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 120, y - 40, { steps: 8 });
    await page.mouse.up();
    const after = await viewBox(page);
    expect(after[0]!).toBeGreaterThan(before[0]! + 20);
    expect(after[1]!).toBeGreaterThan(before[1]!);
    expect(await page.getAttribute("#zone-map", "data-clicks")).toBe(clicks);
    await page.click("#map-reset");
    expect(await viewBox(page)).toEqual([0, 0, 960, 500]);
    await page.click("#map-zoom-in");
    expect(await zoomOf(page)).toBe(2);
    await page.click("#map-zoom-out");
    expect(await zoomOf(page)).toBe(1);
    await page.context().close();
  }, 60_000);

  test("touch: two fingers pinch to zoom, a tap shows the zone's local time and asks /coordinates", async () => {
    const page = await openMap({ width: 390, height: 844 }, true);
    await page.locator("#zone-map svg").scrollIntoViewIfNeeded();
    const [x, y] = await at(page, 78.9, 22.5); // central India
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: "touchStart" | "touchMove" | "touchEnd", points: [number, number][]) =>
      cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points.map(([px, py], id) => ({ x: px, y: py, id })) });
    await touch("touchStart", [[x - 10, y], [x + 10, y]]);
    for (let d = 10; d <= 60; d += 10) await touch("touchMove", [[x - d, y], [x + d, y]]);
    await touch("touchEnd", []);
    expect(await zoomOf(page)).toBeGreaterThan(2.5);
    const [tx, ty] = await at(page, 78.9, 22.5);
    await page.touchscreen.tap(tx, ty);
    await page.waitForSelector("#zone-map[data-timezone='Asia/Kolkata'][data-answer=done]");
    const tip = (await page.textContent("#zone-map .tip"))!;
    expect(await page.isVisible("#zone-map .tip")).toBe(true);
    const t = await api("Asia/Kolkata");
    expect(tip).toStartWith("Asia/Kolkata · ");
    expect(tip).toContain(`UTC${t.utc_offset} ${t.abbreviation}`);
    expect(minutesApart(tip.split(" · ")[1]!, t.datetime.slice(11, 16))).toBeLessThanOrEqual(1);
    await page.context().close();
  }, 60_000);
});

describe("keyboard", () => {
  test("one Tab stop into the map; arrows move between zones, each named with its time; + and − zoom, Shift+arrows pan, Enter asks", async () => {
    const page = await openMap();
    // The link just before the map, then Tab: focus lands on a zone.
    await page.focus("main p a[href='/timezones/']");
    await page.keyboard.press("Tab");
    const focused = () => page.evaluate(() => {
      const e = (globalThis as any).document.activeElement;
      const r = e.getBoundingClientRect();
      return { zone: e.dataset.zone as string | undefined, name: e.getAttribute("aria-label") as string, role: e.getAttribute("role"), x: r.x + r.width / 2 };
    });
    const first = await focused();
    expect(first.zone).toBeDefined();
    expect(first.role).toBe("button");
    const m = /^(.+), (\d\d:\d\d) local time, UTC([+-]\d\d:\d\d) (\S+)$/.exec(first.name)!;
    expect(m?.[1]).toBe(first.zone!);
    const t = await api(first.zone!);
    expect(`${m[3]} ${m[4]}`).toBe(`${t.utc_offset} ${t.abbreviation}`);
    expect(minutesApart(m[2]!, t.datetime.slice(11, 16))).toBeLessThanOrEqual(1);
    // The tip shows the same to a sighted keyboard user.
    expect(await page.textContent("#zone-map .tip")).toStartWith(`${first.zone} · `);
    await page.keyboard.press("ArrowRight");
    const second = await focused();
    expect(second.zone).not.toBe(first.zone);
    expect(second.x).toBeGreaterThan(first.x);
    await page.keyboard.press("+");
    expect(await zoomOf(page)).toBe(1.5);
    const box = await viewBox(page);
    await page.keyboard.press("Shift+ArrowRight");
    expect((await viewBox(page))[0]!).toBeGreaterThan(box[0]!);
    await page.keyboard.press("-");
    expect(await zoomOf(page)).toBe(1);
    await page.keyboard.press("Enter");
    await page.waitForSelector(`#zone-map[data-timezone='${second.zone}'][data-answer=done]`);
    expect(await page.getAttribute("#map-answer a", "href")).toBe(`/zones/${second.zone}/`);
    // Tab leaves the map in one step (one stop for 400 zones), to its zoom buttons.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe("map-zoom-in");
    await page.keyboard.press("Enter");
    expect(await zoomOf(page)).toBe(2);
    await page.context().close();
  }, 60_000);

  test("every zone is a named button, every name unique and its zone's own", async () => {
    const page = await openMap();
    const zones = await page.$$eval("#zone-map [data-zone][role=button]", (els: any[]) => els.map((e) => ({ zone: e.dataset.zone, name: e.getAttribute("aria-label"), tab: e.getAttribute("tabindex") })));
    expect(zones.length).toBeGreaterThan(400);
    expect(new Set(zones.map((z) => z.name)).size).toBe(zones.length);
    expect(zones.filter((z) => !z.name.startsWith(`${z.zone}, `))).toEqual([]);
    expect(zones.filter((z) => z.tab === "0").length).toBe(1);
    await page.context().close();
  }, 60_000);
});

describe("what the map shows", () => {
  test("each offset has one colour, offsets an hour apart differ clearly, and every label gives its zone's offset now", async () => {
    const page = await openMap();
    const drawn = await page.$$eval("#zone-map text[data-zone]", (ts: any[]) => ts.filter((t) => t.getAttribute("visibility") === "visible").map((t) => {
      const g = globalThis as any;
      const shape = g.document.querySelector(`#zone-map path[data-zone="${t.dataset.zone}"]`);
      return { zone: t.dataset.zone as string, label: t.textContent as string, fill: g.getComputedStyle(shape).fill as string };
    }));
    expect(drawn.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    const fills = new Map<string, Set<string>>();
    for (const d of drawn) {
      const want = labelFor((await api(d.zone)).utc_offset);
      if (d.label !== want) wrong.push(`${d.zone}: ${d.label}, the API says ${want}`);
      fills.set(d.label, (fills.get(d.label) ?? new Set()).add(d.fill));
    }
    expect(wrong).toEqual([]);
    expect([...fills].filter(([, f]) => f.size !== 1)).toEqual([]);
    // CIE76 colour difference of the fills of offsets one hour apart.
    const lab = (c: string) => {
      const [r, g, b] = c.match(/[\d.]+/g)!.slice(0, 3).map((v) => { const s = Number(v) / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
      const xyz = [(0.4124 * r! + 0.3576 * g! + 0.1805 * b!) / 0.95047, 0.2126 * r! + 0.7152 * g! + 0.0722 * b!, (0.0193 * r! + 0.1192 * g! + 0.9505 * b!) / 1.08883];
      const f = xyz.map((v) => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116));
      return [116 * f[1]! - 16, 500 * (f[0]! - f[1]!), 200 * (f[1]! - f[2]!)];
    };
    const hours = (label: string) => (label === "UTC" ? 0 : (label[0] === "−" ? -1 : 1) * Number(label.slice(1).split(":")[0]) + (label.includes(":") ? 0.5 : 0));
    const colour = new Map([...fills].map(([label, f]) => [hours(label), lab([...f][0]!)]));
    const close: string[] = [];
    let pairs = 0;
    for (const [h, c] of colour) {
      const next = colour.get(h + 1);
      if (!next) continue;
      pairs++;
      const delta = Math.hypot(c[0]! - next[0]!, c[1]! - next[1]!, c[2]! - next[2]!);
      if (delta < 25) close.push(`${h} and ${h + 1}: ${delta.toFixed(1)}`);
    }
    expect(pairs).toBeGreaterThan(15);
    expect(close).toEqual([]);
    await page.context().close();
  }, 120_000);

  test("labels have 4.5:1 contrast with their halo at least 2 px wide, on a phone and a desktop", async () => {
    for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
      const page = await openMap(viewport);
      const labels = await page.$$eval("#zone-map text[data-zone]", (ts: any[]) => ts.filter((t) => t.getAttribute("visibility") === "visible").map((t) => {
        const g = globalThis as any;
        const s = g.getComputedStyle(t);
        const rgb = (c: string) => c.match(/[\d.]+/g)!.slice(0, 3).map(Number);
        const svg = t.ownerSVGElement;
        const pxPerUnit = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return { fill: rgb(s.fill), halo: rgb(s.stroke), haloOpacity: Number(s.strokeOpacity), haloPx: parseFloat(s.strokeWidth) * pxPerUnit,
          paintOrder: s.paintOrder as string, fontPx: t.getBoundingClientRect().height };
      }));
      expect(labels.length).toBeGreaterThan(10);
      const lum = (c: number[]) => c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i]!, 0);
      const low: string[] = [];
      for (const l of labels) {
        // The halo's worst case: at its opacity over black (the night side darkens what is under it).
        const halo = l.halo.map((v) => v * l.haloOpacity);
        const ratio = (Math.max(lum(l.fill), lum(halo)) + 0.05) / (Math.min(lum(l.fill), lum(halo)) + 0.05);
        if (ratio < 4.5 || l.haloPx < 2 || !l.paintOrder.startsWith("stroke") || l.fontPx < 10) low.push(JSON.stringify({ ...l, ratio }));
      }
      expect({ viewport: viewport.width, low }).toEqual({ viewport: viewport.width, low: [] });
      await page.context().close();
    }
  }, 60_000);

  test("the night side: points the sun is over are outside it, points it cannot see are inside", async () => {
    const page = await openMap();
    // The sun's position now, by the NOAA low-precision formulas (with the equation of time),
    // not the page's: declination from the sun's ecliptic longitude.
    const now = Date.now();
    const days = now / 86_400_000 - 10957.5; // since J2000.0
    const rad = Math.PI / 180;
    const g = (357.529 + 0.98560028 * days) * rad;
    const q = 280.459 + 0.98564736 * days;
    const lambda = (q + 1.915 * Math.sin(g) + 0.02 * Math.sin(2 * g)) * rad;
    const epsilon = (23.439 - 0.00000036 * days) * rad;
    const dec = Math.asin(Math.sin(epsilon) * Math.sin(lambda)) / rad;
    const ra = Math.atan2(Math.cos(epsilon) * Math.sin(lambda), Math.cos(lambda)) / rad;
    const gmst = (18.697374558 + 24.06570982441908 * days) * 15;
    const sunLon = ((((ra - gmst) % 360) + 540) % 360) - 180;
    const angle = (lon: number, lat: number) => Math.acos(Math.sin(lat * rad) * Math.sin(dec * rad) + Math.cos(lat * rad) * Math.cos(dec * rad) * Math.cos((lon - sunLon) * rad)) / rad;
    const checks: { lon: number; lat: number; night: boolean }[] = [];
    while (checks.length < 200) {
      const lon = Math.random() * 350 - 175, lat = Math.random() * 160 - 80;
      const a = angle(lon, lat);
      // Far enough from the line that the formulas' difference (under a degree) cannot matter.
      if (Math.abs(a - 90) > 4) checks.push({ lon, lat, night: a > 90 });
    }
    const wrong: unknown[] = [];
    for (const c of checks) {
      const [x, y] = await at(page, c.lon, c.lat);
      const inNight = await page.$eval("#zone-map path.night", (night: any, p: number[]) => {
        const q = new (globalThis as any).DOMPoint(p[0], p[1]).matrixTransform(night.ownerSVGElement.getScreenCTM().inverse());
        return night.isPointInFill(q);
      }, [x, y]);
      if (inNight !== c.night) wrong.push(c);
    }
    expect(wrong).toEqual([]);
    expect(checks.filter((c) => c.night).length).toBeGreaterThan(50);
    await page.context().close();
  }, 60_000);
});
