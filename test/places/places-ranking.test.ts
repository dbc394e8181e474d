// The ranking bar: for the 500 most populous places of the data, /places?q=<name>
// puts that place first for at least 95% of them, and every miss is explained by a larger
// namesake (the place ranked first weighs more: population, capitals weighed up); and
// each one's timezone is what /coordinates answers at its point.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { placeWeight } from "../../scripts/places/build-places.ts";
import { readPlacesSource, type GeoNamesPlace } from "../../scripts/places/geonames-source.ts";
import { startTestServer } from "../support/test-server.ts";

let server: { url: string; stop: () => void };
beforeAll(async () => {
  server = await startTestServer();
}, 300_000);
afterAll(() => server?.stop());

interface Answer {
  id: number;
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  population: number;
  timezone: string;
}

test("the 500 most populous places: first for their own name (>= 95%, misses have a larger namesake), zones as /coordinates", async () => {
  const source = readPlacesSource();
  const byId = new Map(source.places.map((p) => [p.id, p]));
  const top = [...source.places].sort((a, b) => b.population - a.population || a.id - b.id).slice(0, 500);
  const misses: string[] = [];
  for (const place of top) {
    const response = await fetch(`${server.url}/places?q=${encodeURIComponent(place.name)}&limit=50`);
    expect(response.status).toBe(200);
    const answers = (await response.json()) as Answer[];
    const own = answers.find((a) => a.id === place.id);
    expect(own, `${place.name} (${place.id}) is not among its own name's answers`).toBeDefined();
    expect([own!.latitude, own!.longitude]).toEqual([place.lat5 / 1e5, place.lon5 / 1e5]);
    const at = await fetch(`${server.url}/coordinates/${own!.latitude},${own!.longitude}`);
    expect(((await at.json()) as { timezone: string }).timezone, `${place.name}'s zone`).toBe(own!.timezone);
    if (answers[0]!.id === place.id) continue;
    const first = byId.get(answers[0]!.id) as GeoNamesPlace;
    // A miss must be a namesake that outweighs the place.
    expect(placeWeight(first), `${place.name}: ${first.name} (${first.country}) is first but lighter`).toBeGreaterThan(placeWeight(place));
    misses.push(`${place.name} (${place.country}, ${place.population}) -> ${first.name} (${first.country}, ${first.population}, ${first.featureCode})`);
  }
  console.log(`places ranking: ${500 - misses.length}/500 first for their own name; misses:\n  ${misses.join("\n  ")}`);
  expect(misses.length).toBeLessThanOrEqual(25);
}, 120_000);
