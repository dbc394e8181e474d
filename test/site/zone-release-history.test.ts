// A zone page's history of releases reads right, as the built page has it, against the API's
// /tzdb/{release}/changes: each release's line gives the stretch that matters (the first that
// reaches past the release's date, where the release changed the present or future, else the
// first), counts the other stretches, and says "past only" exactly where no stretch reaches
// past that date; the sentence above names how many releases changed the zone and the newest
// that changed its present or future; a zone no release changed says so.

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testAnsweringHandler, testSiteDir } from "../support/test-server.ts";

let handler: (req: Request) => Response | Promise<Response>;
let siteDir: string;
beforeAll(async () => {
  [handler, siteDir] = await Promise.all([testAnsweringHandler(), testSiteDir()]);
}, 300_000);

const api = async <T>(path: string): Promise<T> => (await (await handler(new Request(`http://localhost${path}`))).json()) as T;
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();

interface Changes { date: string | null; added: string[]; changed: { timezone: string; windows: { start: string; end: string }[] }[] }
const START = Date.UTC(1800, 0, 1) / 1000, END = Date.UTC(2101, 0, 1) / 1000;
const day = (t: number) => `${new Date(t * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The line a release's entry should start with, its "more" count and whether it is past only, from the API's windows. */
function expectedEntry(changes: Changes, name: string): { when: string; more: number; pastOnly: boolean } | "added" {
  if (changes.added.includes(name)) return "added";
  const windows = changes.changed.find((c) => c.timezone === name)!.windows.map((w) => ({ start: Date.parse(w.start) / 1000, end: Date.parse(w.end) / 1000 }));
  const runs: { start: number; end: number }[] = [];
  for (const w of windows) {
    const last = runs.at(-1);
    if (last && last.end === w.start) last.end = w.end;
    else runs.push({ ...w });
  }
  // A release with no date at hand: the build's day stands in (the tests' build is today).
  const released = changes.date === null ? Date.now() / 1000 : Date.parse(`${changes.date}T00:00:00Z`) / 1000;
  const reaching = runs.findIndex((r) => r.end > released);
  const r = runs[Math.max(0, reaching)]!;
  const when = r.start <= START ? (r.end >= END ? "always" : `until ${day(r.end)}`) : r.end >= END ? `from ${day(r.start)} on` : `from ${day(r.start)} to ${day(r.end)}`;
  return { when, more: runs.length - 1, pastOnly: reaching === -1 };
}

describe("a zone page's history of releases", () => {
  test.each(["America/Havana", "America/Vancouver", "Europe/Moscow", "Europe/Paris", "America/Ciudad_Juarez"])("%s: each line the stretch that matters, past only where it is, the newest present-or-future change named", async (name) => {
    const html = readFileSync(join(siteDir, "zones", ...name.split("/"), "index.html"), "utf8");
    const items = [...html.matchAll(/<li><a href="\/releases\/([^/]+)\/">[^<]*<\/a>([\s\S]*?)<\/li>/g)].map((m) => ({ release: m[1]!, text: text(m[2]!) }));
    const feed = await api<{ items: unknown[] }>(`/timezone/${name}/feed.json`);
    expect(items.length).toBe(feed.items.length);
    expect(items.length).toBeGreaterThan(0);
    let newestFuture: string | null = null;
    for (const { release, text: line } of items) {
      const expected = expectedEntry(await api<Changes>(`/tzdb/${release}/changes`), name);
      if (expected === "added") {
        expect({ release, line }).toEqual({ release, line: ": the name first appears" });
        newestFuture ??= release;
        continue;
      }
      expect({ release, starts: line.startsWith(`${expected.pastOnly ? "(past only)" : ""}: ${expected.when}: `) }).toEqual({ release, starts: true });
      const more = expected.more === 0 ? "" : ` (and ${expected.more} more ${expected.more === 1 ? "stretch" : "stretches"})`;
      expect({ release, ends: line.endsWith(more) && !/\(and \d+ more/.test(line.slice(0, line.length - more.length)) }).toEqual({ release, ends: true });
      if (!expected.pastOnly) newestFuture ??= release;
    }
    const summary = text(/<p id="zone-releases-summary">([\s\S]*?)<\/p>/.exec(html)![1]!);
    expect(summary).toStartWith(`${items.length} of the `);
    if (newestFuture === null) expect(summary).toContain("None changed its present or future");
    else expect(summary).toContain(`The newest to change its present or future: ${newestFuture}`);
  }, 60_000);

  test("Europe/Moscow's 2014f line is its move to +03 for good, not 1919's local mean time", () => {
    const html = readFileSync(join(siteDir, "zones", "Europe", "Moscow", "index.html"), "utf8");
    expect(text(/<li><a href="\/releases\/2014f\/">[\s\S]*?<\/li>/.exec(html)![0])).toStartWith("2014f: from 2014-10-25 22:00 UTC on: +03 MSK, not +04 MSK");
  });

  test("a zone no release changed: one sentence, no list", async () => {
    // GMT: the same in every release from 92c on (Africa/Abidjan, once this test's zone, was
    // WAT before 1997i and first appears in 96g).
    const feed = await api<{ items: unknown[] }>("/timezone/GMT/feed.json");
    expect(feed.items).toEqual([]);
    const html = readFileSync(join(siteDir, "zones", "GMT", "index.html"), "utf8");
    expect(text(/<p id="zone-releases">([\s\S]*?)<\/p>/.exec(html)![1]!)).toMatch(/^No release served changed what GMT answers: it answers the same, 1800 to 2100, in all \d+ releases served \(\w+ to \w+\)\.$/);
  });
});
