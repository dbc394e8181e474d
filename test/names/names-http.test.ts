// Issue 19's names over HTTP, against a real server on a free port: /timezone?country=
// equals zone.tab for every code of iso3166.tab; /timezone?q=; ?lang= on time objects
// (timezone_name last, ICU's name) and on /info (the names object); bytes without `lang`
// and under /api unchanged; every bad input a 400 in the one error shape, never a 5xx.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer } from "../support/test-server.ts";

const TZDB = join(import.meta.dir, "..", "..", "data", "tzdb");
const tab = (file: string) => readFileSync(join(TZDB, file), "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t"));

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 300_000);
afterAll(() => server?.stop());

const get = (path: string) => fetch(`${server.url}${path}`);

describe("/timezone?country=", () => {
  test("equals zone.tab for every code in iso3166.tab, sorted; lower case too", async () => {
    const zoneTab = tab("zone.tab");
    const codes = tab("iso3166.tab").map((r) => r[0]!);
    expect(codes.length).toBeGreaterThan(240);
    for (const code of codes) {
      const expected = zoneTab.filter((r) => r[0] === code).map((r) => r[2]!).sort();
      const r = await get(`/timezone?country=${code}`);
      expect(r.status).toBe(200);
      expect({ code, names: await r.json() }).toEqual({ code, names: expected });
    }
    expect(await (await get("/timezone?country=us")).json()).toEqual(zoneTab.filter((r) => r[0] === "US").map((r) => r[2]!).sort());
    expect(await (await get("/timezone.txt?country=NZ")).text()).toBe("Pacific/Auckland\nPacific/Chatham\n");
  });

  test.each(["XX", "ZZ", "D", "DEU", "", "1A", "%00"])("country=%s is a 400", async (code) => {
    const r = await get(`/timezone?country=${code}`);
    expect(r.status).toBe(400);
    expect(Object.keys((await r.json()) as object)).toEqual(["error"]);
  });

  test("a repeated query answers from the cache as first; a code that upper-cases into a kept one's is still a 400", async () => {
    // "ß" upper-cases to "SS" (South Sudan), "ﬀ" to "FF": a kept answer must not stand in for them.
    for (const [kept, refused] of [["SS", "ß"], ["ss", "ß"], ["FF", "ﬀ"]] as const) {
      const first = await get(`/timezone?country=${kept}`);
      const again = await get(`/timezone?country=${kept}`);
      expect(again.status).toBe(first.status);
      expect(await again.text()).toBe(await first.text());
      const r = await get(`/timezone?country=${encodeURIComponent(refused)}`);
      expect(r.status).toBe(400);
      expect(Object.keys((await r.json()) as object)).toEqual(["error"]);
    }
    // A refused q is not kept: it stays refused when asked again.
    for (let i = 0; i < 2; i++) expect((await get("/timezone?q=%01abc")).status).toBe(400);
  });

  test("/api/timezone ignores country (the WorldTimeAPI profile never changes)", async () => {
    expect(await (await get("/api/timezone?country=DE")).text()).toBe(await (await get("/api/timezone")).text());
  });
});

describe("/timezone?q=", () => {
  const q = async (text: string) => {
    const r = await get(`/timezone?q=${encodeURIComponent(text)}`);
    expect(r.status).toBe(200);
    return (await r.json()) as string[];
  };
  test("tzdb abbreviations since 1970", async () => {
    expect(await q("IST")).toEqual(expect.arrayContaining(["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"]));
    expect((await q("CET"))[0]).toBe("Europe/Paris");
    expect(await q("CET")).toContain("Europe/Berlin");
    expect((await q("PST"))[0]).toBe("America/Los_Angeles");
    expect((await q("AEST"))[0]).toBe("Australia/Sydney");
    expect((await q("ist")).slice(0, 3).sort()).toEqual(["Asia/Jerusalem", "Asia/Kolkata", "Europe/Dublin"]);
  });
  test("CLDR metazone names in any locale", async () => {
    expect((await q("pacific time"))[0]).toBe("America/Los_Angeles");
    expect((await q("Pacific Daylight Time"))[0]).toBe("America/Los_Angeles");
    expect(await q("Mitteleuropäische Zeit")).toEqual(expect.arrayContaining(["Europe/Paris", "Europe/Berlin", "Europe/Rome"]));
    expect(await q("mitteleuropaische sommerzeit")).toContain("Europe/Berlin");
    expect((await q("インド標準時"))[0]).toBe("Asia/Kolkata");
    expect((await q("heure normale d’Europe centrale"))[0]).toBe("Europe/Paris");
  });
  test("exemplar cities, last segments, links", async () => {
    expect(await q("kolkata")).toEqual(["Asia/Kolkata"]);
    expect(await q("calcutta")).toEqual(["Asia/Kolkata"]);
    expect(await q("Zürich")).toEqual(["Europe/Zurich"]);
    expect(await q("zurich")).toEqual(["Europe/Zurich"]);
    expect(await q("sao paulo")).toEqual(["America/Sao_Paulo"]);
    expect(await q("Amsterdam")).toEqual(["Europe/Amsterdam"]);
    expect(await q("東京")).toEqual(["Asia/Tokyo"]);
    expect(await q("new yo")).toEqual(["America/New_York"]);
  });
  test("a place's whole name, through the places index: the zone of the place people mean", async () => {
    expect(await q("mumbai")).toEqual(["Asia/Kolkata"]);
    expect(await q("Munich")).toEqual(["Europe/Berlin"]);
    expect(await q("Amsterdam")).toEqual(["Europe/Amsterdam"]);
    // A prefix is not a place's name: no guess from the places index.
    expect(await q("mumb")).toEqual([]);
  });
  test("no match is [] with 200", async () => {
    expect(await q("qqqqzzzz")).toEqual([]);
  });
});

describe("?lang=", () => {
  const at = "at=2024-07-01T12:00:00Z";
  test("timezone_name is the last key of a spec time object, and nothing else changes", async () => {
    for (const path of ["/timezone/Europe/Berlin", "/coordinates/48.14,11.58", "/ip/8.8.8.8"]) {
      const plain = await (await get(`${path}?${at}`)).text();
      const withLang = await (await get(`${path}?${at}&lang=de`)).text();
      const parsed = JSON.parse(withLang);
      expect(Object.keys(parsed).at(-1)).toBe("timezone_name");
      expect(withLang.replace(/"datetime":"[^"]*"|"utc_datetime":"[^"]*"/g, "")).toStartWith(
        plain.slice(0, -1).replace(/"datetime":"[^"]*"|"utc_datetime":"[^"]*"/g, ""));
    }
    expect(JSON.parse(await (await get(`/timezone/Europe/Berlin?${at}&lang=de`)).text()).timezone_name).toBe("Mitteleuropäische Sommerzeit");
    expect(JSON.parse(await (await get(`/timezone/America/Los_Angeles?at=2024-01-01T00:00:00Z&lang=en`)).text()).timezone_name).toBe("Pacific Standard Time");
    expect(JSON.parse(await (await get(`/timezone/Asia/Kolkata?${at}&lang=ja`)).text()).timezone_name).toBe("インド標準時");
    expect(await (await get(`/timezone/Europe/Berlin.txt?${at}&lang=fr`)).text()).toEndWith("\ntimezone_name: heure d’été d’Europe centrale\n");
  });

  test("the /api profile ignores lang: byte for byte what it answers without", async () => {
    const strip = (s: string) => s.replace(/\d{6}(\+00:00|[+-]\d\d:\d\d)"/g, "$1\"");
    const plain = await (await get(`/api/timezone/Europe/Berlin?${at}`)).text();
    const withLang = await (await get(`/api/timezone/Europe/Berlin?${at}&lang=de`)).text();
    expect(strip(withLang)).toBe(strip(plain));
    expect(withLang).not.toContain("timezone_name");
  });

  test("/info gets a names object in the locale asked for (CLDR's fallback chain)", async () => {
    const info = (await (await get(`/timezone/Europe/Berlin/info?${at}&lang=de-AT-1996`)).json()) as any;
    expect(info.names).toEqual({
      locale: "de-AT",
      generic_long: "Mitteleuropäische Zeit",
      standard_long: "Mitteleuropäische Normalzeit",
      daylight_long: "Mitteleuropäische Sommerzeit",
      generic_short: "MEZ",
      standard_short: "MEZ",
      daylight_short: "MESZ",
      exemplar_city: "Berlin",
      country_names: expect.any(Array),
    });
    // zone1970.tab's countries of the zone, in /info's order, named in German.
    expect(info.names.country_names.map((c: { code: string }) => c.code)).toEqual(info.countries.map((c: { code: string }) => c.code));
    expect(info.names.country_names.slice(0, 2)).toEqual([{ code: "DE", name: "Deutschland" }, { code: "DK", name: "Dänemark" }]);
    // ja has no short names for Central Europe: null, not a made-up one.
    const ja = (await (await get(`/timezone/Europe/Berlin/info?${at}&lang=ja`)).json()) as any;
    expect([ja.names.generic_short, ja.names.standard_short, ja.names.daylight_short]).toEqual([null, null, null]);
    const kolkata = (await (await get(`/timezone/Asia/Calcutta/info?${at}&lang=en`)).json()) as any;
    expect(kolkata.names.daylight_long).toBeNull();
    expect(kolkata.names.generic_long).toBe("India Standard Time");
    expect(kolkata.names.exemplar_city).toBe("Kolkata");
    const la = (await (await get(`/timezone/America/Los_Angeles/info?${at}&lang=en`)).json()) as any;
    expect([la.names.generic_short, la.names.standard_short, la.names.daylight_short]).toEqual(["PT", "PST", "PDT"]);
    const zh = (await (await get(`/timezone/Asia/Taipei/info?${at}&lang=zh-TW`)).json()) as any;
    expect(zh.names.locale).toBe("zh-Hant");
    const text = await (await get(`/timezone/Europe/Berlin/info.txt?${at}&lang=fr`)).text();
    expect(text).toContain("\nnames.locale: fr\n");
    expect(text).toContain("\nnames.country_names.DE: Allemagne\n");
    expect(text).toContain("\nnames.daylight_long: heure d’été d’Europe centrale\n");
  });
});

describe("bad input: a 400 in the one error shape, never a 5xx", () => {
  const cases = [
    "/timezone?q=", `/timezone?q=${"a".repeat(10240)}`, "/timezone?q=%01abc", "/timezone?q=a%7Fb", "/timezone?q=%ff",
    "/timezone/UTC?lang=xx", "/timezone/UTC?lang=x-", "/timezone/UTC?lang=x-foo", "/timezone/UTC?lang=", "/timezone/UTC?lang=%ff",
    "/timezone/UTC?lang=de--AT", `/timezone/UTC?lang=${"de-".repeat(40)}de`, "/timezone/UTC/info?lang=qqq", "/ip/8.8.8.8?lang=%00",
    "/coordinates/1,1?lang=@@", "/timezone/UTC?lang=1234",
  ];
  test.each(cases.map((c) => [c.length > 80 ? `${c.slice(0, 40)}... (${c.length} characters)` : c, c]))("%s", async (_label, path) => {
    const r = await get(path);
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(Object.keys(body as object)).toEqual(["error"]);
  });
});
