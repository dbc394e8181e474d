// `?tzdb=RELEASE` on /info answers countries and coordinates as that release's own .tab
// files said, read here straight from IANA's repository at the release's commit (not from
// what data/tzdb-releases stores): zone1970.tab's row first (from 2014f on), then zone.tab's,
// a Link without a row of its own telling its target's; country names from its iso3166.tab.
// A sample of releases (the oldest with .tab files, the first with zone1970.tab, one between, the
// newest tag) and every name each had; the default release answers as before.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { storedReleases } from "../support/release-reference.ts";
import { REPO_TZDB_DIR } from "../support/history-table.ts";
import { startTestServer } from "../support/test-server.ts";
import { ianaRepoFile, tabRows } from "../support/iana-repo.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 600_000);
afterAll(() => server?.stop());

const getJson = async (path: string) => {
  const r = await fetch(`${server.url}${path}`);
  return { status: r.status, body: await r.json() as any };
};


/** ISO 6709 ±DDMM[SS] or ±DDDMM[SS] in degrees, to 5 decimals. */
function degrees(text: string): number {
  const width = text.length === 5 || text.length === 7 ? 2 : 3;
  const [d, m, s] = [text.slice(1, 1 + width), text.slice(1 + width, 3 + width), text.slice(3 + width) || "0"].map(Number);
  const value = Math.round((d! + m! / 60 + s! / 3600) * 1e5) / 1e5;
  return text[0] === "-" ? -value : value;
}

interface Expected {
  countries: { code: string; name: string }[];
  location: { latitude: number; longitude: number; comment: string } | null;
}

/** What a release's own tables say of each name they list. */
function tablesOf(files: { zone1970: string | null; zoneTab: string; iso3166: string }): Map<string, Expected> {
  const countryName = new Map(tabRows(files.iso3166).map(([code, name]) => [code!, name!]));
  const out = new Map<string, Expected>();
  const add = (codes: string, coordinates: string, name: string, comment = "") => {
    if (out.has(name)) return; // zone1970.tab's row wins
    const split = Math.max(coordinates.lastIndexOf("+"), coordinates.lastIndexOf("-"));
    out.set(name, {
      countries: codes.split(",").map((code) => ({ code, name: countryName.get(code) ?? code })),
      location: { latitude: degrees(coordinates.slice(0, split)), longitude: degrees(coordinates.slice(split)), comment },
    });
  };
  for (const [codes, coordinates, name, comment] of tabRows(files.zone1970)) add(codes!, coordinates!, name!, comment);
  for (const [code, coordinates, name, comment] of tabRows(files.zoneTab)) add(code!, coordinates!, name!, comment);
  return out;
}

/** Every name of `release` (query: `?tzdb=...` or ""), its /info countries and location against `tables`. */
async function compareAll(query: string, tables: Map<string, Expected>): Promise<{ names: number; withCountry: number; differences: string[] }> {
  const { body: names } = await getJson(`/timezone${query}`);
  const differences: string[] = [];
  let withCountry = 0;
  for (const name of names as string[]) {
    const { status, body } = await getJson(`/timezone/${name}/info${query}`);
    if (status !== 200) {
      differences.push(`${name}: ${status}`);
      continue;
    }
    const expected = tables.get(name) ?? tables.get(body.canonical) ?? { countries: [], location: null };
    if (expected.countries.length > 0) withCountry++;
    const ours = { countries: body.countries, location: body.location };
    if (JSON.stringify(ours) !== JSON.stringify(expected)) differences.push(`${name}: ours ${JSON.stringify(ours)} vs ${JSON.stringify(expected)}`);
  }
  return { names: names.length, withCountry, differences };
}

describe("?tzdb=RELEASE: countries and coordinates as that release's .tab files had them", () => {
  const stored = storedReleases();
  const commitOf = (release: string) => /\(([0-9a-f]{40})\)$/.exec(stored.find((r) => r.release === release)!.source)![1]!;
  const older = stored.slice(1).map((r) => r.release); // newest first; [0] is the default
  const firstWith1970 = [...older].reverse().find((r) => ianaRepoFile(commitOf(r), "zone1970.tab") !== null)!;
  // The oldest with .tab files (96k: the releases before had none, their names no countries).
  const oldestWithTabs = [...older].reverse().find((r) => ianaRepoFile(commitOf(r), "zone.tab") !== null)!;
  const sample = [oldestWithTabs, older[Math.floor(older.length * 0.6)]!, firstWith1970, older[0]!];

  test.each(sample)("%s: every name's countries and location are its own zone1970.tab/zone.tab's", async (release) => {
    const commit = commitOf(release);
    const tables = tablesOf({ zone1970: ianaRepoFile(commit, "zone1970.tab"), zoneTab: ianaRepoFile(commit, "zone.tab")!, iso3166: ianaRepoFile(commit, "iso3166.tab")! });
    const { names, withCountry, differences } = await compareAll(`?tzdb=${release}`, tables);
    console.log(`${release} (${commit.slice(0, 10)}): ${names} names, ${withCountry} with a country, ${differences.length} differences`);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(withCountry).toBeGreaterThan(300);
  }, 120_000);

  test("the sample spans the forms: regions before 2006, zone.tab alone, zone1970.tab", () => {
    expect(new Set(sample).size).toBe(4);
    expect(ianaRepoFile(commitOf(sample[0]!), "zone1970.tab")).toBeNull();
    expect(ianaRepoFile(commitOf(sample[1]!), "zone1970.tab")).toBeNull();
  });

  test("a release before 96k had no .tab files: its names answer no countries and no location", async () => {
    expect(ianaRepoFile(commitOf("96h"), "zone.tab")).toBeNull();
    const { status, body: names } = await getJson("/timezone?tzdb=96h");
    expect(status).toBe(200);
    for (const name of names as string[]) {
      const { body } = await getJson(`/timezone/${name}/info?tzdb=96h`);
      expect({ name, countries: body.countries, location: body.location }).toEqual({ name, countries: [], location: null });
    }
  });

  test("a release's own answer differs from today's where its tables did: Europe/Berlin's countries", async () => {
    const old = await getJson(`/timezone/Europe/Berlin/info?tzdb=${firstWith1970}`);
    const now = await getJson("/timezone/Europe/Berlin/info");
    const codes = (b: any) => b.countries.map((c: { code: string }) => c.code);
    // 2022b on, zone1970.tab lists the countries that merged their zones into Berlin's.
    expect(codes(old.body)).toEqual(["DE"]);
    expect(codes(now.body).length).toBeGreaterThan(1);
  });

  test("the default release: the same with and without ?tzdb=, and as data/tzdb's tables say", async () => {
    const read = (f: string) => readFileSync(join(REPO_TZDB_DIR, f), "utf8");
    const tables = tablesOf({ zone1970: read("zone1970.tab"), zoneTab: read("zone.tab"), iso3166: read("iso3166.tab") });
    const plain = await compareAll("", tables);
    const named = await compareAll(`?tzdb=${stored[0]!.release}`, tables);
    expect(plain.differences.slice(0, 10)).toEqual([]);
    expect(named.differences.slice(0, 10)).toEqual([]);
    expect(plain.names).toBe(named.names);
    expect(plain.withCountry).toBeGreaterThan(400);
  }, 120_000);
});
