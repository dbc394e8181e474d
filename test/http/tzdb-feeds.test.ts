// The tzdb feeds read by real feed readers: Atom by feedparser (python3-feedparser) with no
// warning, Atom and JSON Feed by gofeed; one entry per release served (or per release that
// changed the name), each linking to its release's page on the website, which names the
// release and links each changed zone's page. ETags as everywhere.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildGofeed, feedparser, gofeed } from "../support/feed-readers.ts";
import { startTestServer, testSiteDir } from "../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ SITE_DIR: await testSiteDir() }); // the release pages the entries link to
  buildGofeed(); // compiles gofeed and its dependencies from Debian's sources: tens of seconds
}, 600_000);
afterAll(() => server?.stop());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${server.url}${path}`, { headers });
  return { status: r.status, type: r.headers.get("content-type") ?? "", etag: r.headers.get("etag"), text: await r.text() };
};

describe("the releases feed", () => {
  test("Atom: feedparser reads it without a warning, one entry per release, each linking to its page", async () => {
    const releases: { release: string; summary: string }[] = JSON.parse((await get("/tzdb")).text).releases;
    const atom = await get("/tzdb/feed.atom");
    expect([atom.status, atom.type]).toEqual([200, "application/atom+xml; charset=utf-8"]);
    const feed = feedparser(atom.text, `${server.url}/tzdb/feed.atom`, atom.type);
    expect({ version: feed.version, bozo: feed.bozo, bozoException: feed.bozoException }).toEqual({ version: "atom10", bozo: false, bozoException: null });
    expect(feed.entries.map((e) => e.title)).toEqual(releases.map((r) => `tzdb ${r.release}`));
    for (const [i, entry] of feed.entries.entries()) {
      expect(entry.link).toBe(`${server.url}/releases/${releases[i]!.release}/`);
    }
    // The page each entry links to answers, as the release it names, and links the zones it lists.
    for (const entry of [feed.entries[0]!, feed.entries[3]!, feed.entries.at(-1)!]) {
      const page = await fetch(entry.link, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(new RegExp(`<h1[^>]*>${entry.title}</h1>`));
      const listed = /\((\d+)\): (.*)\.$/.exec(entry.content)?.[2]?.split(", ").filter((n) => !n.endsWith(" (new)") && n !== "none") ?? [];
      for (const name of listed) expect({ name, linked: html.includes(`href="/zones/${name}/"`) }).toEqual({ name, linked: true });
    }
    // 2026b moved British Columbia to permanent -07: the entry names Vancouver.
    expect(feed.entries.find((e) => e.title === "tzdb 2026b")!.content).toContain("America/Vancouver");
    expect((await get("/tzdb/feed.atom", { "If-None-Match": atom.etag! })).status).toBe(304);
  }, 60_000);

  test("gofeed reads the Atom and the JSON Feed alike: the same entries and links", async () => {
    const atom = gofeed((await get("/tzdb/feed.atom")).text);
    const json = await get("/tzdb/feed.json");
    expect([json.status, json.type]).toEqual([200, "application/feed+json; charset=utf-8"]);
    const parsed = gofeed(json.text);
    expect([atom.type, parsed.type, parsed.version]).toEqual(["atom", "json", "https://jsonfeed.org/version/1.1"]);
    expect(parsed.items.map((i) => [i.title, i.link, i.published])).toEqual(atom.items.map((i) => [i.title, i.link, i.published]));
    expect(parsed.items.length).toBeGreaterThanOrEqual(88);
    expect(parsed.items[1]!.link).toMatch(/^\/releases\/\d{4}[a-z]\/$/);
    expect((await get("/tzdb/feed.json", { "If-None-Match": json.etag! })).status).toBe(304);
  }, 60_000);
});

describe("a name's feed", () => {
  test("America/Vancouver: an entry for 2026b (its permanent -07), read by both readers", async () => {
    const atom = await get("/timezone/America/Vancouver/feed.atom");
    const feed = feedparser(atom.text, `${server.url}/timezone/America/Vancouver/feed.atom`, atom.type);
    expect(feed.bozo).toBe(false);
    const titles = feed.entries.map((e) => e.title);
    expect(titles).toContain("America/Vancouver in tzdb 2026b");
    // Releases that did not change Vancouver have no entry (2026c changed Alberta, not BC).
    expect(titles).not.toContain("America/Vancouver in tzdb 2026c");
    // IANA's names: "2026b", and before 1996l two-digit years ("96g").
    for (const e of feed.entries) expect(e.link).toMatch(new RegExp(`^${server.url}/releases/(?:\\d{4}[a-z]|\\d\\d[a-z]?)/$`));
    const json = gofeed((await get("/timezone/America/Vancouver/feed.json")).text);
    expect(json.items.map((i) => i.title)).toEqual(titles);
  }, 60_000);
});
