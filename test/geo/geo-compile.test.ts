// The coordinates compiler and lookup on polygons made up here, against an even-odd oracle
// written independently below: holes, a border two zones share, two zones overlapping (the
// data's disputed areas), a ring of 4,000 vertices (cells split many levels deep), the sea
// by longitude, a quad wholly inside a zone, and geo-tz's North Pole.

import { describe, expect, test } from "bun:test";
import { compileGeo } from "../../scripts/geo/compile-geo.ts";
import type { GeoSource, LeafFeature } from "../../scripts/geo/geo-source.ts";
import { decodeGeoTable, encodeGeoTable } from "../../server/formats/geo-format.ts";
import { GeoTable } from "../../server/geo/geo-locator.ts";

const square = (w: number, s: number, e: number, n: number) => [[w, s], [e, s], [e, n], [w, n], [w, s]];
const micro = (x: number) => Math.round(x * 1e6) / 1e6;
const circle = (lon: number, lat: number, r: number, n: number) => {
  const ring: number[][] = [];
  for (let i = 0; i < n; i++) {
    // A wobbly circle, so neighbouring cells see edges of every direction.
    const radius = r * (1 + 0.2 * Math.sin(17 * (2 * Math.PI * i) / n));
    ring.push([micro(lon + radius * Math.cos((2 * Math.PI * i) / n)), micro(lat + radius * Math.sin((2 * Math.PI * i) / n))]);
  }
  ring.push(ring[0]!);
  return ring;
};

const features: LeafFeature[] = [
  { tzid: "Europe/London", polygons: [[square(5, 2, 10, 8), square(7, 4, 8, 5)]] },
  { tzid: "Europe/Paris", polygons: [[square(10, 2, 15, 8)]] },
  { tzid: "Asia/Kolkata", polygons: [[square(12.5, 5, 17.5, 10)], [square(18, 5, 19, 6)]] },
  { tzid: "America/Sao_Paulo", polygons: [[circle(30, 12, 5, 4000)]] },
];
const ocean = Array.from({ length: 25 }, (_, i) => {
  const hours = 12 - i;
  const tzid = hours === 0 ? "Etc/GMT" : `Etc/GMT${hours > 0 ? "-" : "+"}${Math.abs(hours)}`;
  return { tzid, left: Math.max(-180, 15 * hours - 7.5), right: Math.min(180, 15 * hours + 7.5) };
});
const source: GeoSource = {
  version: "test",
  boundaryRelease: "test",
  timezones: ["Asia/Tokyo"],
  // The polygons in quad "acc" (0..22.5 N, 0..45 E, small enough for exact integer
  // arithmetic); the NW quad wholly inside Asia/Tokyo; everything else sea.
  root: { a: { c: { c: { pos: 0, len: 1 } } }, b: [0] },
  leaves: (visit) => visit("acc", features),
  ocean,
};
const names = new Set([...features.map((f) => f.tzid), "Asia/Tokyo", ...ocean.map((b) => b.tzid)]);
const { table: input } = compileGeo(source, names);
const bytes = encodeGeoTable({ ...input, metadata: { source: "test" } });
const table = new GeoTable(decodeGeoTable(bytes.buffer as ArrayBuffer, "test.bin"));

/** Classic crossing number over every ring of a feature (a different walk than ours). */
function oracle(lat: number, lon: number): string[] {
  const inside = features.filter((f) => {
    let odd = false;
    for (const polygon of f.polygons) {
      for (const ring of polygon) {
        for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
          const [xi, yi] = ring[i]!;
          const [xj, yj] = ring[j]!;
          if (yi! > lat !== yj! > lat && lon < ((xj! - xi!) * (lat - yi!)) / (yj! - yi!) + xi!) odd = !odd;
        }
      }
    }
    return odd;
  }).map((f) => f.tzid);
  if (inside.length > 0) return inside;
  return ocean.filter((b) => b.left <= lon && lon <= b.right).map((b) => b.tzid);
}

describe("lookups on made-up polygons", () => {
  test("inside, in a hole, across a shared border, where two zones overlap", () => {
    expect(table.zonesAt(3, 6)).toEqual(["Europe/London"]);
    expect(table.zonesAt(4.5, 7.7)).toEqual(["Etc/GMT-1"]); // the hole is sea
    expect(table.zonesAt(3, 10 - 1e-9)).toEqual(["Europe/London"]);
    expect(table.zonesAt(3, 10 + 1e-9)).toEqual(["Europe/Paris"]);
    expect(table.zonesAt(3, 13)).toEqual(["Europe/Paris"]);
    expect(table.zonesAt(6, 13)).toEqual(["Europe/Paris", "Asia/Kolkata"]);
    expect(table.zonesAt(9, 16)).toEqual(["Asia/Kolkata"]);
    expect(table.zonesAt(5.5, 18.5)).toEqual(["Asia/Kolkata"]); // its second polygon
    expect(table.zonesAt(12, 30)).toEqual(["America/Sao_Paulo"]);
  });

  test("the sea by longitude, both bands on their edge, the NW quad, the pole", () => {
    expect(table.zonesAt(-10, -30)).toEqual(["Etc/GMT+2"]);
    expect(table.zonesAt(-10, 7.5)).toEqual(["Etc/GMT-1", "Etc/GMT"]);
    expect(table.zonesAt(-10, 180)).toEqual(["Etc/GMT+12", "Etc/GMT-12"]);
    expect(table.zonesAt(50, -100)).toEqual(["Asia/Tokyo"]);
    expect(table.zonesAt(90, 10)).toEqual(ocean.map((b) => b.tzid));
  });

  test("out of range or not a number: no answer", () => {
    for (const [lat, lon] of [[91, 0], [0, 181], [NaN, 0], [0, Infinity]] as const) expect(table.answerAt(lat, lon)).toBe(-1);
  });

  test("20,000 random points around the polygons agree with the oracle", () => {
    let state = 99;
    const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const wrong: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      // Half near the 4,000-vertex ring's boundary, half over the squares.
      const [lat, lon] = i % 2 === 0
        ? (() => {
          const a = random() * 2 * Math.PI;
          const r = 5 * (1 + 0.2 * Math.sin(17 * a)) + (random() - 0.5) * 0.02;
          return [12 + r * Math.sin(a), 30 + r * Math.cos(a)];
        })()
        : [1 + random() * 10, 4 + random() * 16];
      const ours = table.zonesAt(lat!, lon!).join("|");
      const expected = oracle(lat!, lon!).join("|");
      if (ours !== expected) wrong.push(`${lat},${lon}: ${ours} vs ${expected}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
