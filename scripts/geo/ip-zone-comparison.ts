// Should the IP build take each network's zone from our coordinates table (geo-tz/all's
// polygons, exact) instead of @photostructure/tz-lookup? This walks every located network of
// the embedded DB-IP source, asks both for the network's coordinates, and prints how many
// networks (and IPv4 addresses) change zone, sorted by why:
//   sea           our table finds no land polygon there (a nautical Etc/GMT zone)
//   same clocks   both zones keep the same offset, abbreviation and DST flag through 2026-2027
//                 (different names for one clock today; they differ before 1970 or in
//                 naming, which ?at= in the past shows)
//   near a border different clocks, and our answer becomes tz-lookup's within 0.05 degrees
//   elsewhere     different clocks, farther from any border
// `bun scripts/geo/ip-zone-comparison.ts` (after `bun run build`).

import tzlookup from "@photostructure/tz-lookup";
import { join } from "node:path";
import { GEO_FILE, GeoTable } from "../../server/geo/geo-locator.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { isIpv4Alias } from "../ip/build-ip.ts";
import { dbipSource } from "../ip/ip-sources.ts";
import { dataRecord, ipv4StartNode, walkNetworks, type MmdbFile } from "../ip/mmdb-tree.ts";
import { DEFAULT_DATA_DIR } from "../paths.ts";

type Why = "same" | "sea" | "sameClocks" | "nearBorder" | "elsewhere" | "noLocation";

const dataDir = process.env.DATA_DIR || DEFAULT_DATA_DIR;
const geo = GeoTable.load(join(dataDir, GEO_FILE));
const zones = await ZoneTable.load(join(dataDir, "zones.bin"));
const source = await dbipSource();
const from = Date.UTC(2026, 0, 1) / 1000;
const until = Date.UTC(2028, 0, 1) / 1000;

function sameClocks(a: string, b: string): boolean {
  const za = zones.resolve(a)?.zone;
  const zb = zones.resolve(b)?.zone;
  if (za === undefined || zb === undefined) return false;
  for (let t = from; t < until;) {
    const pa = zones.periodAt(za, t);
    const pb = zones.periodAt(zb, t);
    if (pa.type.utoff !== pb.type.utoff || pa.type.isdst !== pb.type.isdst || pa.type.abbr !== pb.type.abbr) return false;
    t = Math.min(pa.end, pb.end);
  }
  return true;
}

const examples = new Map<Why, string[]>();
function classify(lat: unknown, lon: unknown): Why {
  if (typeof lat !== "number" || typeof lon !== "number") return "noLocation";
  const old = tzlookup(lat, lon);
  const ours = geo.zonesAt(lat, lon)[0]!;
  if (old === ours) return "same";
  let why: Why;
  if (ours.startsWith("Etc/")) why = "sea";
  else if (sameClocks(old, ours)) why = "sameClocks";
  else {
    const d = 0.05;
    why = [[d, 0], [-d, 0], [0, d], [0, -d], [d, d], [-d, -d], [d, -d], [-d, d]]
      .some(([a, o]) => geo.zonesAt(Math.max(-90, Math.min(90, lat + a!)), Math.max(-180, Math.min(180, lon + o!))).includes(old))
      ? "nearBorder" : "elsewhere";
  }
  const list = examples.get(why) ?? [];
  if (list.length < 6) list.push(`${lat},${lon}: tz-lookup ${old}, ours ${ours}`);
  examples.set(why, list);
  return why;
}

const started = performance.now();
for (const version of [4, 6] as const) {
  const file: MmdbFile = version === 4 ? source.v4 : source.v6;
  const cache = new Map<number, Why>();
  const networks: Record<Why, number> = { same: 0, sea: 0, sameClocks: 0, nearBorder: 0, elsewhere: 0, noLocation: 0 };
  const addresses: Record<Why, number> = { ...networks };
  const visit = (_high: number, _low: number, prefix: number, pointer: number | null) => {
    if (pointer === null) return;
    let why = cache.get(pointer);
    if (why === undefined) {
      const r = dataRecord(file, pointer) as { latitude?: unknown; longitude?: unknown };
      cache.set(pointer, (why = classify(r.latitude, r.longitude)));
    }
    networks[why]++;
    if (version === 4) addresses[why] += 2 ** (32 - prefix);
  };
  if (version === 4) walkNetworks(file, ipv4StartNode(file), 32, visit);
  else walkNetworks(file, 0, 128, visit, isIpv4Alias);
  const total = Object.values(networks).reduce((a, b) => a + b, 0);
  const changed = total - networks.same - networks.noLocation;
  console.log(`IPv${version}: ${total} located networks, ${changed} change zone (${((100 * changed) / total).toFixed(2)}%): ` +
    (["sea", "sameClocks", "nearBorder", "elsewhere"] as const).map((w) => `${networks[w]} ${w}`).join(", "));
  if (version === 4) {
    const all = Object.values(addresses).reduce((a, b) => a + b, 0);
    console.log(`  IPv4 addresses: ${all} located, ${all - addresses.same - addresses.noLocation} change zone: ` +
      (["sea", "sameClocks", "nearBorder", "elsewhere"] as const).map((w) => `${addresses[w]} ${w}`).join(", "));
  }
}
for (const [why, list] of examples) console.log(`${why}:\n  ${list.join("\n  ")}`);
console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
