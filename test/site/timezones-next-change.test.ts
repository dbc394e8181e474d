// Issue 34: the Timezones page says each zone's next change as its people read it, on the
// local wall clock ("Sun 28 Mar 2027, 01:00 → 02:00 (clocks go forward 1 hour)"), not as a
// UTC instant; the words must agree with /transitions' local_before and local_at.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";

let session: SiteSession;
beforeAll(async () => {
  session = await startSiteSession();
}, 180_000);
afterAll(() => session?.close(), 30_000);

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2027-03-28T01:00:00" -> { date: "Sun 28 Mar 2027", time: "01:00" }. */
const words = (local: string) => {
  const [y, m, d] = local.slice(0, 10).split("-").map(Number) as [number, number, number];
  return { date: `${DAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${d} ${MONTHS[m - 1]} ${y}`, time: local.slice(11, 16) };
};
const seconds = (offset: string) => (offset[0] === "-" ? -1 : 1) * (Number(offset.slice(1, 3)) * 3600 + Number(offset.slice(4, 6)) * 60);

/** What the row should say, from the API's own next transition. */
async function expected(zone: string): Promise<string> {
  const from = new Date().toISOString().slice(0, 19) + "Z";
  const to = new Date(Date.now() + 700 * 86400_000).toISOString().slice(0, 19) + "Z";
  const r = (await (await fetch(`${session.base}/timezone/${zone}/transitions?from=${from}&to=${to}`)).json()) as {
    transitions: { utc_offset: string; utc_offset_before: string; abbreviation: string; dst: boolean; local_before: string; local_at: string }[] };
  const t = r.transitions.find((x) => x.utc_offset !== x.utc_offset_before);
  if (!t) return "none within two years";
  const before = words(t.local_before), after = words(t.local_at);
  const clock = before.date === after.date ? `${before.date}, ${before.time} → ${after.time}` : `${before.date} ${before.time} → ${after.date} ${after.time}`;
  const moved = seconds(t.utc_offset) - seconds(t.utc_offset_before);
  const h = Math.floor(Math.abs(moved) / 3600), m = (Math.abs(moved) % 3600) / 60;
  const amount = [h ? `${h} hour${h === 1 ? "" : "s"}` : "", m ? `${m} minute${m === 1 ? "" : "s"}` : ""].filter(Boolean).join(" ");
  return `${clock} (clocks go ${moved > 0 ? "forward" : "back"} ${amount}), then UTC${t.utc_offset} ${t.abbreviation}${t.dst ? " (DST)" : ""}`;
}

test("the next change of London, Sydney, Lord Howe, Santiago and Kolkata in local wall-clock words, in the page and after its script", async () => {
  const zones = ["Europe/London", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata"];
  const html = await (await fetch(`${session.base}/timezones/`)).text();
  const context = await session.browser.newContext({ extraHTTPHeaders: VISITOR });
  const page = await context.newPage();
  for (const zone of zones) {
    const want = await expected(zone);
    // As built (what a visitor without JavaScript reads).
    const cell = new RegExp(`data-name="${zone}"[\\s\\S]*?<td class="next">([^<]*)</td>`).exec(html)![1]!.replaceAll("&gt;", ">");
    expect({ zone, built: cell }).toEqual({ zone, built: want });
    // As the script writes it for a row on screen.
    await page.goto(`${session.base}/timezones/?q=${encodeURIComponent(zone)}`);
    await page.waitForFunction((z) => (globalThis as any).document.querySelector(`tr[data-name="${z}"] td.now`).textContent !== "", zone);
    expect({ zone, shown: await page.textContent(`tr[data-name="${zone}"] td.next`) }).toEqual({ zone, shown: want });
  }
  await context.close();
}, 60_000);
