// /places against a real server on the test build: the examples, the contract's
// fields, and bad input (a 400 in the one error shape, never a 5xx).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";
import type { Place } from "../../server/places/place-table.ts";

let server: { url: string; stop: () => void };
beforeAll(async () => {
  server = await startTestServer();
}, 300_000);
afterAll(() => server?.stop());

/** What /places answers: the places table's own Place (server/places/place-table.ts). */
type PlaceAnswer = Place;

async function places(query: string): Promise<PlaceAnswer[]> {
  const response = await fetch(`${server.url}/places?${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
  return (await response.json()) as PlaceAnswer[];
}

describe("GET /places", () => {
  test.each([
    ["Paris", "Paris", "FR", "Europe/Paris"],
    ["London", "London", "GB", "Europe/London"],
    ["Sydney", "Sydney", "AU", "Australia/Sydney"],
    ["sao paulo", "São Paulo", "BR", "America/Sao_Paulo"],
    ["zurich", "Zürich", "CH", "Europe/Zurich"],
    ["ZÜRICH", "Zürich", "CH", "Europe/Zurich"],
    ["new yo", "New York City", "US", "America/New_York"],
    ["new+york", "New York City", "US", "America/New_York"],
    ["bombay", "Mumbai", "IN", "Asia/Kolkata"],
    ["M%C3%BCnchen", "Munich", "DE", "Europe/Berlin"],
    ["%E6%9D%B1%E4%BA%AC", "Tokyo", "JP", "Asia/Tokyo"],
    ["st.%20petersburg", "Saint Petersburg", "RU", "Europe/Moscow"],
  ])("q=%s finds %s, %s first", async (q, name, country, timezone) => {
    const [first] = await places(`q=${q}`);
    expect(first).toMatchObject({ name, country, timezone });
  });

  test("every field the contract names, with its type, and the stable GeoNames id", async () => {
    const [paris] = await places("q=paris&limit=1");
    expect(paris).toEqual({
      id: 2988507, name: "Paris", country: "FR", country_name: "France", admin1: "Île-de-France",
      latitude: 48.85341, longitude: 2.3488, population: paris!.population, timezone: "Europe/Paris",
    });
    expect(paris!.population).toBeGreaterThan(1_000_000);
  });

  test("country narrows, limit bounds, the default is 10, best first", async () => {
    const us = await places("q=paris&country=us&limit=50");
    expect(us.length).toBeGreaterThan(5);
    expect(us.every((p) => p.country === "US")).toBe(true);
    expect(us[0]!.name).toBe("Paris");
    expect((await places("q=san")).length).toBe(10);
    expect((await places("q=san&limit=3")).length).toBe(3);
    const fifty = await places("q=s&limit=50");
    expect(fifty.length).toBe(50);
    expect(new Set(fifty.map((p) => p.id)).size).toBe(50);
    // Exact names before prefixes: "lima" is Lima, not Limassol or Limbe.
    const lima = await places("q=lima&limit=5");
    expect(lima[0]).toMatchObject({ name: "Lima", country: "PE" });
  });

  test("a place's timezone is /coordinates' answer at its point", async () => {
    for (const q of ["paris", "indianapolis", "urumqi", "kiev", "tijuana", "broken hill", "busingen"]) {
      for (const place of await places(`q=${q}&limit=3`)) {
        const response = await fetch(`${server.url}/coordinates/${place.latitude},${place.longitude}`);
        expect(((await response.json()) as { timezone: string }).timezone).toBe(place.timezone);
      }
    }
  });

  test("no match is [] with 200; so is a country with no such place", async () => {
    expect(await places("q=qqqqxzzz")).toEqual([]);
    expect(await places("q=paris&country=AQ")).toEqual([]);
    expect(await places("q=%21%21%21")).toEqual([]);
  });

  test("lang localizes country names as CLDR (ICU) gives them; place and region names stay GeoNames'", async () => {
    const [first] = await places("q=munich&lang=de");
    expect(first).toMatchObject({ name: "Munich", country_name: new Intl.DisplayNames("de", { type: "region" }).of("DE"), admin1: "Bavaria" });
    expect(first!.country_name).toBe("Deutschland");
    const [tokyo] = await places("q=tokyo&lang=ja");
    expect(tokyo!.country_name).toBe("日本");
    // de-AT falls back to de; without lang, English.
    expect((await places("q=munich&lang=de-AT"))[0]!.country_name).toBe("Deutschland");
    expect((await places("q=munich"))[0]!.country_name).toBe("Germany");
  });

  test.each([
    ["", "missing q"],
    ["q=", "missing q"],
    ["q=%20%20", "missing q"],
    [`q=${"a".repeat(101)}`, "invalid q"],
    [`q=${"a".repeat(10_240)}`, "invalid q"],
    ["q=par%00is", "invalid q"],
    ["q=par%0Ais", "invalid q"],
    ["q=par%7Fis", "invalid q"],
    ["q=par%C2%85is", "invalid q"],
    ["q=%E0%A4%A", "invalid q"],
    ["q=%ED%A0%80", "invalid q"],
    ["q=paris&limit=0", "invalid limit"],
    ["q=paris&limit=51", "invalid limit"],
    ["q=paris&limit=abc", "invalid limit"],
    ["q=paris&limit=", "invalid limit"],
    ["q=paris&limit=-1", "invalid limit"],
    ["q=paris&limit=1e1", "invalid limit"],
    ["q=paris&country=ZZ", "invalid country"],
    ["q=paris&country=FRA", "invalid country"],
    ["q=paris&country=", "invalid country"],
    ["q=paris&country=%C3%89S", "invalid country"],
    ["q=paris&lang=x-", "lang must be a BCP 47 language tag"], // as every ?lang= route says it (params/lang-param.ts)
    ["q=paris&lang=%00", "lang must be a BCP 47 language tag"],
  ])("?%.60s is a 400: %s", async (query, message) => {
    const response = await fetch(`${server.url}/places?${query}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error.startsWith(message)).toBe(true);
  });

  test("100 characters are fine, outside the BMP counted as one each", async () => {
    expect(await places(`q=${"a".repeat(100)}`)).toEqual([]);
    expect(await places(`q=${"%F0%9F%98%80".repeat(60)}`)).toEqual([]);
  });
});
