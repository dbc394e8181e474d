// `/timezone?country=CC&tzdb=RELEASE` lists what that release's own zone.tab gave the
// country (the default list's semantics: zone.tab's names, sorted; 400 for a code the
// release's iso3166.tab lacks), read here straight from IANA's repository at the release's
// commit, not from what data/tzdb-releases stores. A sample of releases, every code each
// release's iso3166.tab lists.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { storedReleases } from "../support/release-reference.ts";
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


/** Code -> zone.tab's names for it (sorted), for every code of iso3166.tab. */
function countryLists(rev: string): Map<string, string[]> {
  const lists = new Map(tabRows(ianaRepoFile(rev, "iso3166.tab")).map(([code]) => [code!, [] as string[]]));
  for (const [code, , name] of tabRows(ianaRepoFile(rev, "zone.tab"))) lists.get(code!)!.push(name!);
  for (const names of lists.values()) names.sort();
  return lists;
}

describe("/timezone?country=CC&tzdb=RELEASE: that release's zone.tab", () => {
  const stored = storedReleases();
  const commitOf = (release: string) => /\(([0-9a-f]{40})\)$/.exec(stored.find((r) => r.release === release)!.source)![1]!;
  const older = stored.slice(1).map((r) => r.release); // newest first; [0] is the default
  // The oldest release with a zone.tab (96k; those before had none), one between, two around 2022b's merges, the newest tag.
  const oldestWithTabs = [...older].reverse().find((r) => ianaRepoFile(commitOf(r), "zone.tab") !== null)!;
  const sample = [oldestWithTabs, older[Math.floor(older.length * 0.6)]!, "2019c", "2022b", older[0]!];

  test.each(sample)("%s: every code of its iso3166.tab lists its zone.tab's names", async (release) => {
    const lists = countryLists(commitOf(release));
    const differences: string[] = [];
    let unlikeDefault = 0;
    for (const [code, expected] of lists) {
      const { status, body } = await getJson(`/timezone?country=${code}&tzdb=${release}`);
      if (status !== 200 || JSON.stringify(body) !== JSON.stringify(expected)) differences.push(`${code}: ${status} ${JSON.stringify(body)} vs ${JSON.stringify(expected)}`);
      const plain = await getJson(`/timezone?country=${code}`);
      if (JSON.stringify(plain.body) !== JSON.stringify(expected)) unlikeDefault++;
    }
    console.log(`${release}: ${lists.size} codes, ${differences.length} differences, ${unlikeDefault} lists unlike the default release's`);
    expect(differences.slice(0, 10)).toEqual([]);
    expect(lists.size).toBeGreaterThan(200);
  }, 120_000);

  test("the lists that changed between releases: Ukraine, Greenland, Canada, Denmark", async () => {
    const list = async (query: string) => (await getJson(`/timezone?${query}`)).body;
    // 2022b renamed Kiev to Kyiv (zone.tab's row with it); 2022g dropped Uzhgorod and Zaporozhye.
    expect(await list("country=UA&tzdb=2019c")).toEqual(countryLists(commitOf("2019c")).get("UA")!);
    expect(await list("country=UA&tzdb=2019c")).toContain("Europe/Kiev");
    expect(await list("country=UA&tzdb=2022b")).toContain("Europe/Kyiv");
    expect(await list("country=UA&tzdb=2022b")).toContain("Europe/Zaporozhye");
    expect(await list("country=UA")).not.toContain("Europe/Zaporozhye");
    expect(await list("country=GL&tzdb=2019c")).toContain("America/Godthab");
    expect(await list("country=GL&tzdb=2022b")).toContain("America/Nuuk");
    expect(await list("country=CA&tzdb=2022b")).toContain("America/Thunder_Bay");
    expect(await list("country=CA")).not.toContain("America/Thunder_Bay");
    // Copenhagen became a Link of Berlin in 2022b, but zone.tab (one row per country) kept
    // its row: the list is the same; zone1970.tab's change shows in /info's countries.
    expect(await list("country=DK&tzdb=2019c")).toEqual(["Europe/Copenhagen"]);
    expect(await list("country=DK&tzdb=2022b")).toEqual(["Europe/Copenhagen"]);
  });

  test("a code the release's iso3166.tab lacks is a 400 naming the release; the default release answers as before", async () => {
    const oldest = oldestWithTabs;
    const lists = countryLists(commitOf(oldest));
    const now = countryLists("HEAD");
    const added = [...now.keys()].find((code) => !lists.has(code) && (now.get(code)?.length ?? 0) > 0)!;
    expect(added).toBeDefined();
    const refused = await getJson(`/timezone?country=${added}&tzdb=${oldest}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(`tzdb ${oldest}'s iso3166.tab`);
    expect((await getJson(`/timezone?country=${added}`)).status).toBe(200);
    expect((await getJson("/timezone?country=ZZ&tzdb=2019c")).status).toBe(400);
    expect((await getJson("/timezone?country=D&tzdb=2019c")).status).toBe(400);
    const named = await getJson(`/timezone?country=DE&tzdb=${stored[0]!.release}`);
    expect(named).toEqual(await getJson("/timezone?country=DE"));
  });

  test("a release that had no zone.tab (those before 96k) has no country lists: a 404 naming it", async () => {
    expect(ianaRepoFile(commitOf("96h"), "zone.tab")).toBeNull();
    const refused = await getJson("/timezone?country=AU&tzdb=96h");
    expect(refused.status).toBe(404);
    expect(refused.body.error).toContain("tzdb 96h has no zone.tab");
    expect((await getJson("/timezone?country=AU&tzdb=96k")).body).toEqual(countryLists(commitOf("96k")).get("AU")!);
  });
});
