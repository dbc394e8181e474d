// Issue 34: the home page asked for a place twice and for coordinates twice (its own cards
// and the map's forms). One of each now: the "Time in…" box for a place's name, the "A place"
// card for coordinates; the map below answers clicks and the keyboard.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
beforeAll(async () => {
  session = await startSiteSession();
}, 180_000);
afterAll(() => session?.close(), 30_000);

test("home: one field for a place's name, one pair for latitude and longitude", async () => {
  const context = await session.browser.newContext({ extraHTTPHeaders: VISITOR });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${session.base}/`);
  const labels = await page.$$eval("main input", (inputs: any[]) => inputs.filter((i) => i.getClientRects().length > 0)
    .map((i) => ((i.labels?.[0]?.textContent ?? i.getAttribute("aria-label") ?? "") as string).replace(/\s+/g, " ").trim()));
  const count = (re: RegExp) => labels.filter((l) => re.test(l)).length;
  expect({ labels, place: count(/^(Time in|Place)/), latitude: count(/^Latitude/), longitude: count(/^Longitude/) })
    .toEqual({ labels, place: 1, latitude: 1, longitude: 1 });
  // The map is still there, drawn without the forms it leaves out, and answers the keyboard.
  await page.waitForSelector("#zone-map[data-state=ready]", { timeout: 30_000 });
  await page.focus("#zone-map [data-zone][tabindex='0']");
  const zone = await page.getAttribute("#zone-map [data-zone][tabindex='0']", "data-zone");
  await page.keyboard.press("Enter");
  await page.waitForSelector(`#zone-map[data-timezone='${zone}'][data-answer=done]`);
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);
