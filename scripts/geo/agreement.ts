// generated/geo.bin against its source: points around every zone1970.tab location (jittered
// by up to a degree and by up to a kilometre), points within a few metres to a few
// millimetres of a border (found by bisection between two nearby points whose zones differ),
// points uniform over the globe's area, and the special lines geo-tz treats apart (poles,
// antimeridian, the nautical bands' edges), each looked up in our table and with geo-tz/all's
// `find` in the same process; the whole list of zones must agree, in order.
// `bun scripts/geo/agreement.ts [count=1000000] [seed]` prints the counts; test/geo runs 20,000.

import { find } from "geo-tz/all";
import { join } from "node:path";
import { GEO_FILE } from "../../server/formats/geo-format.ts";
import { GeoTable } from "../../server/geo/geo-locator.ts";
import { DEFAULT_DATA_DIR, DEFAULT_TZDB_DIR } from "../paths.ts";

export type PointKind = "city" | "border" | "uniform" | "special";

export interface Disagreement {
  kind: PointKind;
  lat: number;
  lon: number;
  ours: readonly string[];
  geoTz: string[];
  /** geo-tz itself gives our answer within 1e-9 degrees (0.1 mm): the point is on a line. */
  onLine: boolean;
}

export interface AgreementResult {
  checked: Record<PointKind, number>;
  disagreements: Disagreement[];
}

/** zone1970.tab's locations, in degrees ([lat, lon]). */
export async function zoneLocations(tzdbDir: string): Promise<[number, number][]> {
  const text = await Bun.file(join(tzdbDir, "zone1970.tab")).text();
  const out: [number, number][] = [];
  const parse = (s: string, degreeDigits: number) => {
    const digits = s.slice(1);
    const d = Number(digits.slice(0, degreeDigits));
    const m = Number(digits.slice(degreeDigits, degreeDigits + 2));
    const sec = Number(digits.slice(degreeDigits + 2) || 0);
    return (s[0] === "-" ? -1 : 1) * (d + m / 60 + sec / 3600);
  };
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([+-]\d+)([+-]\d+)$/.exec(line.split("\t")[1]!);
    if (m) out.push([parse(m[1]!, 2), parse(m[2]!, 3)]);
  }
  return out;
}

const clampLat = (x: number) => Math.max(-90, Math.min(90, x));
const wrapLon = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);

/** geo-tz's special cases: the poles and the root box's clamp, the antimeridian, the
 *  nautical bands' edges (both zones there), the equator and prime meridian (quad lines). */
export function specialPoints(): [number, number][] {
  const out: [number, number][] = [];
  for (const lat of [90, 89.99995, 89.9999, 45, 0, -45, -89.9999, -89.99995, -90]) {
    for (let lon = -180; lon <= 180; lon += 7.5) out.push([lat, lon]);
    for (const lon of [-179.99995, -179.9999, 179.9999, 179.99995]) out.push([lat, lon]);
  }
  return out;
}

export function checkAgreement(table: GeoTable, cities: [number, number][], count: number, seed: number): AgreementResult {
  let state = seed >>> 0 || 1;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const checked: Record<PointKind, number> = { city: 0, border: 0, uniform: 0, special: 0 };
  const disagreements: Disagreement[] = [];
  const compare = (kind: PointKind, lat: number, lon: number) => {
    checked[kind]++;
    const ours = table.zonesAt(lat, lon);
    const geoTz = find(lat, lon);
    if (ours.length === geoTz.length && ours.every((z, i) => z === geoTz[i])) return;
    const e = 1e-9;
    const near = [[lat + e, lon], [lat - e, lon], [lat, lon + e], [lat, lon - e]]
      .some(([a, o]) => Math.abs(a!) <= 90 && Math.abs(o!) <= 180 && find(a!, o!)[0] === ours[0]);
    disagreements.push({ kind, lat, lon, ours, geoTz, onLine: near });
  };
  const first = (lat: number, lon: number) => table.answerAt(lat, lon);

  for (const [lat, lon] of specialPoints()) compare("special", lat, lon);
  const remaining = Math.max(4, count - checked.special);
  const quarter = Math.floor(remaining / 4);
  for (let i = 0; i < remaining - 2 * quarter; i++) {
    const [lat, lon] = cities[i % cities.length]!;
    // Half within a degree, half within ~1 km.
    const reach = i % 2 === 0 ? 1 : 0.01;
    compare("city", clampLat(lat + (random() * 2 - 1) * reach), wrapLon(lon + (random() * 2 - 1) * reach));
  }
  for (let i = 0; i < quarter; i++) {
    // Uniform over the sphere's area.
    compare("uniform", (Math.asin(2 * random() - 1) * 180) / Math.PI, random() * 360 - 180);
  }
  for (let i = 0, tries = 0; i < quarter && tries < 50 * quarter; tries++) {
    const [lat, lon] = cities[Math.floor(random() * cities.length)]!;
    let aLat = clampLat(lat + (random() * 2 - 1) * 2);
    let aLon = wrapLon(lon + (random() * 2 - 1) * 2);
    let bLat = clampLat(lat + (random() * 2 - 1) * 2);
    let bLon = wrapLon(lon + (random() * 2 - 1) * 2);
    const a = first(aLat, aLon);
    if (a === first(bLat, bLon)) continue;
    // Bisect to within ~1e-9 degrees of where the answer changes, then step off the line
    // by 10^-4 .. 10^-8 degrees (11 m .. 1 mm) in a random direction.
    for (let k = 0; k < 40; k++) {
      const mLat = (aLat + bLat) / 2;
      const mLon = (aLon + bLon) / 2;
      if (first(mLat, mLon) === a) [aLat, aLon] = [mLat, mLon];
      else [bLat, bLon] = [mLat, mLon];
    }
    const size = 10 ** -(4 + 4 * random());
    const angle = random() * 2 * Math.PI;
    compare("border", clampLat(aLat + size * Math.sin(angle)), wrapLon(aLon + size * Math.cos(angle)));
    i++;
  }
  return { checked, disagreements };
}

if (import.meta.main) {
  const count = Number(process.argv[2] ?? 1_000_000);
  const seed = Number(process.argv[3] ?? 20261121);
  const started = performance.now();
  const table = GeoTable.load(join(process.env.DATA_DIR || DEFAULT_DATA_DIR, GEO_FILE));
  const result = checkAgreement(table, await zoneLocations(DEFAULT_TZDB_DIR), count, seed);
  const total = Object.values(result.checked).reduce((a, b) => a + b, 0);
  const onLine = result.disagreements.filter((d) => d.onLine).length;
  console.log(`checked ${total} points (seed ${seed}): ${Object.entries(result.checked).map(([k, n]) => `${n} ${k}`).join(", ")} ` +
    `in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`disagreements: ${result.disagreements.length} (${onLine} within 1e-9 degrees of a boundary line, ` +
    `${result.disagreements.length - onLine} away from one)`);
  for (const d of result.disagreements) {
    console.log(`  ${d.kind} ${d.lat},${d.lon}: ours ${d.ours.join("|") || "-"}, geo-tz ${d.geoTz.join("|") || "-"}${d.onLine ? " (on a line)" : ""}`);
  }
  process.exit(result.disagreements.length - onLine === 0 ? 0 : 1);
}
