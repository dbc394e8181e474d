// The map and the zone pages in Debian's Chromium against the real service: clicks on the
// map show what /coordinates answers (five known points, then 100 random ones); every zone
// page's chart data equals /transitions; London's chart has British Standard Time and the
// 1996-onwards EU rule.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startServer, type Service } from "../../server/process/service.ts";
import { launchBrowser } from "../support/browser.ts";
import { testConfig, testSiteDir } from "../support/test-server.ts";

let service: Service;
let base: string;
let browser: Browser;
let siteDir: string;

beforeAll(async () => {
  siteDir = await testSiteDir();
  service = await startServer(await testConfig({ SITE_DIR: siteDir, RATE_LIMIT: "off" }), { sharePort: false });
  base = `http://127.0.0.1:${service.server.port}`;
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  service?.server.stop(true);
});

type Change = [number, number, 0 | 1, number, -1 | 0 | 1];
const pageData = (name: string) => {
  const html = readFileSync(join(siteDir, "zones", ...name.split("/"), "index.html"), "utf8");
  const m = /<script type="application\/json" id="zone-data">([\s\S]*?)<\/script>/.exec(html)!;
  return { html, data: JSON.parse(m[1]!) as { zone: string; from: number; to: number; start: [number, 0 | 1, number]; abbrs: string[]; changes: Change[] } };
};

describe("zone pages", () => {
  test("every name's chart data and drawn steps equal /transitions over 1970 to ten years ahead", async () => {
    const names = (await (await fetch(`${base}/timezone`)).json()) as string[];
    expect(names.length).toBeGreaterThan(590);
    const wrong: string[] = [];
    for (const name of names) {
      const { html, data } = pageData(name);
      const api: Change[] = [];
      for (let from: string | null = String(data.from); from !== null;) {
        const r = (await (await fetch(`${base}/timezone/${name}/transitions?from=${from}&to=${data.to}`)).json()) as any;
        for (const t of r.transitions) {
          const [h, m, s] = t.utc_offset.slice(1).split(":").map(Number);
          const off = (t.utc_offset[0] === "-" ? -1 : 1) * (h * 3600 + m * 60 + (s ?? 0));
          api.push([t.unixtime, off, t.dst ? 1 : 0, data.abbrs.indexOf(t.abbreviation), t.local_change === "gap" ? 1 : t.local_change === "overlap" ? -1 : 0]);
        }
        from = r.next_from === null ? null : String(Date.parse(r.next_from) / 1000);
      }
      const drawn = [...html.matchAll(/class="step [a-z]+" [^>]*data-at="(\d+)" data-offset="(-?\d+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
      if (JSON.stringify(api) !== JSON.stringify(data.changes)) wrong.push(`${name}: data differs from /transitions`);
      if (JSON.stringify(drawn) !== JSON.stringify(api.map((c) => [c[0], c[1]]))) wrong.push(`${name}: drawn steps differ`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  test("London: British Standard Time (UTC+1 all year, 1968-71) and the EU rule from 1996 on", () => {
    const { data } = pageData("Europe/London");
    // 1970 starts inside BST: UTC+01:00, not DST; it ends 1971-10-31 03:00 local (02:00 UTC).
    expect(data.start.slice(0, 2)).toEqual([3600, 0]);
    expect(data.abbrs[data.start[2]]).toBe("BST");
    expect(data.changes[0]!.slice(0, 3)).toEqual([Date.UTC(1971, 9, 31, 2) / 1000, 0, 0]);
    // From 1996: last Sunday of March and October at 01:00 UTC, every year.
    const lastSunday = (y: number, month: number) => {
      const d = new Date(Date.UTC(y, month + 1, 0, 1));
      d.setUTCDate(d.getUTCDate() - d.getUTCDay());
      return d.getTime() / 1000;
    };
    const from1996 = data.changes.filter((c) => c[0] >= Date.UTC(1996, 0, 1) / 1000);
    const expected: number[][] = [];
    for (let y = 1996; Date.UTC(y, 0, 1) / 1000 < data.to; y++) expected.push([lastSunday(y, 2), 3600, 1], [lastSunday(y, 9), 0, 0]);
    expect(from1996.map((c) => c.slice(0, 3))).toEqual(expected);
  });

  test("a zone page in the browser: its table of changes, its live time, its POSIX string to copy", async () => {
    const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`${base}/zones/Australia/Lord_Howe/`);
    const { data } = pageData("Australia/Lord_Howe");
    await page.click("#all-changes summary");
    // The rows are made by the details' toggle event, a task queued after the click returns.
    await page.locator("#all-changes tbody tr").first().waitFor();
    expect(await page.locator("#all-changes tbody tr").count()).toBe(data.changes.length);
    // Lord Howe's half-hour DST: +10:30 standard, +11:00 in summer.
    expect(await page.textContent("#all-changes tbody tr:last-child td:nth-child(2)")).toMatch(/^UTC\+1(0:30|1:00)$/);
    await page.waitForSelector("#zone-now[data-state=live]");
    const info = (await (await fetch(`${base}/timezone/Australia/Lord_Howe/info`)).json()) as { posix_tz: string };
    await page.click("button[data-copy=posix-tz]");
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(info.posix_tz);
    // The device string, live from /timezone/{name}/device, copied as shown.
    const dev = (await (await fetch(`${base}/timezone/Australia/Lord_Howe/device`)).json()) as { posix_tz: string };
    await page.waitForFunction((want) => (globalThis as any).document.getElementById("device-tz").textContent === want, dev.posix_tz);
    await page.click("button[data-copy=device-tz]");
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(dev.posix_tz);
    // A link's page shows its zone's chart and says so.
    await page.goto(`${base}/zones/GB/`);
    expect(await page.textContent("main")).toContain("A link to Europe/London");
    expect(pageData("GB").data.changes).toEqual(pageData("Europe/London").data.changes);
    await context.close();
  }, 60_000);
});

describe("the map", () => {
  let page: Page;
  beforeAll(async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await page.goto(`${base}/map/`);
    await page.waitForSelector("#zone-map[data-state=ready]", { timeout: 30_000 });
  }, 60_000);

  const clickAt = async (x: number, y: number) => {
    const before = Number((await page.getAttribute("#zone-map", "data-clicks")) ?? 0);
    await page.mouse.click(x, y);
    await page.waitForFunction((b) => {
      const m = (globalThis as any).document.getElementById("zone-map");
      return Number(m.dataset.clicks ?? 0) > b && m.dataset.answer !== "asking";
    }, before);
    const m = await page.$eval("#zone-map", (e: any) => ({ ...e.dataset }));
    return m as { lat: string; lng: string; answer: string; timezone?: string; datetime?: string };
  };
  const agree = async (shown: { lat: string; lng: string; timezone?: string; datetime?: string }) => {
    const r = await fetch(`${base}/coordinates/${shown.lat},${shown.lng}`);
    const t = (await r.json()) as { timezone: string; datetime: string };
    const diff = Math.abs(Date.parse(t.datetime.slice(0, 19) + "Z") - Date.parse(shown.datetime!.slice(0, 19) + "Z")) / 1000;
    return { zone: shown.timezone === t.timezone, time: diff <= 3, want: t.timezone, got: shown.timezone };
  };

  test("clicking five known points shows their zone and its time", async () => {
    // Inland points: one pixel of the map is about 0.4 degrees, so a coastal city may click into the sea.
    const points: [number, number, string][] = [[-0.1278, 51.5074, "Europe/London"], [85.324, 27.7172, "Asia/Kathmandu"],
      [-78.3, 21.6, "America/Havana"], [151.2093, -33.8688, "Australia/Sydney"], [-74.006, 40.7128, "America/New_York"]];
    for (const [lon, lat, zone] of points) {
      const [x, y] = (await page.$eval("#zone-map", (e: any, p: number[]) => e.project(p[0], p[1]), [lon, lat])) as [number, number];
      const shown = await clickAt(x, y);
      expect({ zone, shown: shown.timezone }).toEqual({ zone, shown: zone });
      // The click lands within a pixel of the point: the shown coordinates are near it.
      expect(Math.abs(Number(shown.lat) - lat)).toBeLessThan(0.5);
      expect((await agree(shown)).time).toBe(true);
      expect(await page.textContent("#map-answer")).toContain(zone);
    }
  }, 60_000);

  test("hover names the zone under the pointer and its time now", async () => {
    for (const [lon, lat, zone] of [[2.5, 46.5, "Europe/Paris"], [78.9, 22.5, "Asia/Kolkata"]] as const) {
      const [x, y] = (await page.$eval("#zone-map", (e: any, p: number[]) => e.project(p[0], p[1]), [lon, lat])) as [number, number];
      await page.mouse.move(x, y);
      await page.waitForSelector("#zone-map .tip:not([hidden])");
      const tip = (await page.textContent("#zone-map .tip"))!;
      const t = (await (await fetch(`${base}/timezone/${zone}`)).json()) as { datetime: string; utc_offset: string };
      expect(tip).toStartWith(`${zone} · `);
      expect(tip).toContain(`UTC${t.utc_offset}`);
      // hh:mm now, give or take the minute turning between the two reads.
      const [hh, mm] = tip.split(" · ")[1]!.split(":").map(Number);
      const api = Number(t.datetime.slice(11, 13)) * 60 + Number(t.datetime.slice(14, 16));
      expect(Math.min(Math.abs(hh! * 60 + mm! - api), 1440 - Math.abs(hh! * 60 + mm! - api))).toBeLessThanOrEqual(1);
    }
  }, 30_000);

  test("100 clicks at random points agree with /coordinates", async () => {
    const box = (await page.locator("#zone-map svg").boundingBox())!;
    const bad: unknown[] = [];
    let answered = 0;
    for (let i = 0; answered < 100 && i < 110; i++) {
      // Random points of the drawn globe, off its very rim (where a click lands off the map and asks nothing).
      const lon = Math.random() * 356 - 178, lat = Math.random() * 168 - 84;
      const [x, y] = (await page.$eval("#zone-map", (e: any, p: number[]) => e.project(p[0], p[1]), [lon, lat])) as [number, number];
      expect(x >= box.x && x <= box.x + box.width).toBe(true);
      const shown = await clickAt(x, y);
      if (shown.answer === "off-map") continue;
      if (shown.answer !== "done") { bad.push(shown); continue; }
      answered++;
      const a = await agree(shown);
      if (!a.zone || !a.time) bad.push(a);
    }
    expect(bad).toEqual([]);
    expect(answered).toBe(100);
  }, 120_000);

  test("the keyboard form asks the same question", async () => {
    await page.fill("#map-lat", "-31.55");
    await page.fill("#map-lng", "159.08");
    await page.press("#map-lng", "Enter");
    await page.waitForSelector("#zone-map[data-timezone='Australia/Lord_Howe']");
    expect(await page.getAttribute("#map-lat", "id")).toBe("map-lat");
    expect(await page.locator("label:has(#map-lat)").textContent()).toContain("Latitude");
  }, 30_000);

  test("a place's name asks the same question: /places, then /coordinates at its point", async () => {
    const found = await (await fetch(`${base}/places?q=Kathmandu&limit=1`)).json() as { latitude: number; longitude: number; timezone: string }[];
    const best = found[0]!;
    await page.fill("#map-place", "kathmandu");
    await page.press("#map-place", "Enter");
    await page.waitForSelector(`#zone-map[data-timezone='${best.timezone}'][data-answer=done]`);
    const shown = await page.$eval("#zone-map", (e: any) => ({ lat: e.dataset.lat, lng: e.dataset.lng }));
    expect(shown).toEqual({ lat: best.latitude.toFixed(4), lng: best.longitude.toFixed(4) });
    expect(best.timezone).toBe("Asia/Kathmandu");
  }, 30_000);
});

describe("accessibility and layout (Lighthouse-style checks we can run here)", () => {
  const PAGES = ["/", "/map/", "/zones/Europe/London/", "/zones/Australia/Lord_Howe/"];

  test("the map's loading shifts no layout (cumulative layout shift 0 on /map/; the frame keeps its size)", async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      for (const path of ["/", "/map/"]) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await page.addInitScript(() => {
          const g = globalThis as any;
          g.layoutShift = 0;
          new g.PerformanceObserver((list: any) => {
            for (const e of list.getEntries()) if (!e.hadRecentInput) g.layoutShift += e.value;
          }).observe({ type: "layout-shift", buffered: true });
        });
        await page.goto(`${base}${path}`);
        const before = await page.locator("#zone-map .frame").boundingBox();
        await page.waitForSelector("#zone-map[data-state=ready]", { timeout: 30_000 });
        await page.waitForTimeout(300);
        const after = await page.locator("#zone-map .frame").boundingBox();
        const shift = await page.evaluate(() => (globalThis as any).layoutShift as number);
        // On the home page the live clocks above the map change height as their first answers
        // arrive (about 0.006, before this work too), moving the map with them: there the
        // map's frame must keep its size; on /map/ nothing may shift at all.
        if (path === "/map/") {
          expect({ path, viewport: viewport.width, shift }).toEqual({ path, viewport: viewport.width, shift: 0 });
          expect(after).toEqual(before);
        } else {
          expect({ width: after!.width, height: after!.height }).toEqual({ width: before!.width, height: before!.height });
        }
        await context.close();
      }
    }
  }, 120_000);

  test("every control has an accessible name, every drawing a label", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const path of PAGES) {
      await page.goto(`${base}${path}`);
      await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
      const unnamed = await page.$$eval("input, button, select, textarea, svg[role=img], a", (els: any[]) => els.filter((e) => {
        if (e.type === "hidden" || e.closest("[hidden]")) return false;
        const labelled = e.getAttribute("aria-label") || e.getAttribute("aria-labelledby") || (e.labels && e.labels.length > 0) || (e.textContent ?? "").trim() !== "";
        return !labelled;
      }).map((e) => e.outerHTML.slice(0, 80)));
      expect({ path, unnamed }).toEqual({ path, unnamed: [] });
      // Charts are images with a label for screen readers; the map is a labelled group of zones
      // (each a named button, test/site/map-controls.test.ts).
      const unlabelledSvgs = await page.$$eval("main svg", (els: any[]) => els.filter((e) => {
        const role = e.getAttribute("role");
        return role !== "img" && !(role === "group" && e.getAttribute("aria-label")) && e.getAttribute("aria-hidden") !== "true";
      }).length);
      expect({ path, unlabelledSvgs }).toEqual({ path, unlabelledSvgs: 0 });
    }
    await context.close();
  }, 60_000);

  test("text contrast is at least 4.5:1 (3:1 for large text), light and dark colour schemes", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ colorScheme });
      const page = await context.newPage();
      for (const path of PAGES) {
        await page.goto(`${base}${path}`);
        await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
        const low = await page.evaluate(() => {
          const g = globalThis as any;
          const parse = (c: string) => { const m = c.match(/[\d.]+/g)!.map(Number); return { r: m[0]!, g: m[1]!, b: m[2]!, a: m.length > 3 ? m[3]! : 1 }; };
          const lum = (c: { r: number; g: number; b: number }) => {
            const f = (v: number) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
            return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
          };
          const background = (e: any) => {
            for (let n = e; n; n = n.parentElement) {
              const c = parse(g.getComputedStyle(n).backgroundColor);
              if (c.a > 0.5) return c;
            }
            return parse(g.getComputedStyle(g.document.documentElement).backgroundColor || "rgb(255,255,255)");
          };
          const out: string[] = [];
          for (const e of g.document.querySelectorAll("main *, header *, footer *")) {
            if (e.closest("svg") || e.closest("[hidden]") || e.closest("details:not([open])") && e.tagName !== "SUMMARY") continue;
            const own = [...e.childNodes].some((n: any) => n.nodeType === 3 && n.textContent.trim() !== "");
            if (!own) continue;
            const s = g.getComputedStyle(e);
            const fg = parse(s.color), bg = background(e);
            const [a, b] = [lum(fg) + 0.05, lum(bg) + 0.05];
            const ratio = Math.max(a, b) / Math.min(a, b);
            const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
            const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
            if (ratio < need) out.push(`${e.tagName} "${e.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
          }
          return out;
        });
        expect({ colorScheme, path, low }).toEqual({ colorScheme, path, low: [] });
      }
      await context.close();
    }
  }, 90_000);
});
