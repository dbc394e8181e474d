// `bun run bench` (tz part): how long the tz tables take to build, how big they are, and
// what one lookup costs, for "now" (served from the per-zone cache) and for random
// instants 1800-2500 (binary search, or the footer past the stored transitions).
// Timings are medians of repeated batches; a trivial Map lookup measured in the same run
// is printed as the baseline the lookup costs are a ratio of.

import { compileTzdb, toTableInput } from "../tzdb/compile.ts";
import { readTzdbSource } from "../tzdb/build-zones.ts";
import { DEFAULT_TZDB_DIR } from "../paths.ts";
import { encodeZones } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { median, nsPerOp } from "./timing.ts";

export async function benchTz(): Promise<void> {
  const source = await readTzdbSource(DEFAULT_TZDB_DIR);
  const buildMs: number[] = [];
  let bytes: Uint8Array = new Uint8Array();
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    bytes = encodeZones(toTableInput(compileTzdb([source]), new Date().toISOString()));
    buildMs.push(performance.now() - start);
  }
  const loadStart = performance.now();
  const table = ZoneTable.fromBuffer(bytes.buffer as ArrayBuffer, "zones.bin");
  const loadMs = performance.now() - loadStart;

  const names = [...table.names];
  const zones = names.map((n) => table.resolve(n)!.zone);
  const now = Date.now() / 1000;
  const lo = Date.UTC(1800, 0, 1) / 1000;
  const hi = Date.UTC(2500, 0, 1) / 1000;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const N = 1 << 16;
  const randomZones = Int32Array.from({ length: N }, () => zones[Math.floor(random() * zones.length)]!);
  const randomTimes = Float64Array.from({ length: N }, () => lo + random() * (hi - lo));
  const nowZones = Int32Array.from({ length: N }, (_, i) => zones[i % zones.length]!);
  const lowerNames = names.map((n) => n.toLowerCase());
  const baselineMap = new Map(lowerNames.map((n, i) => [n, i]));

  const baseline = nsPerOp(15, 200_000, (i) => baselineMap.get(lowerNames[i % lowerNames.length]!)!);
  const resolveNs = nsPerOp(15, 200_000, (i) => table.resolve(names[i % names.length]!)!.zone);
  const nowNs = nsPerOp(15, 200_000, (i) => table.periodAt(nowZones[i & (N - 1)]!, now + (i & 1023) * 1e-3).type.utoff);
  const randomNs = nsPerOp(15, 200_000, (i) => table.periodAt(randomZones[i & (N - 1)]!, randomTimes[i & (N - 1)]!).type.utoff);
  const futureTimes = Float64Array.from({ length: N }, () => Date.UTC(2100, 0, 1) / 1000 + random() * (hi - Date.UTC(2100, 0, 1) / 1000));
  const ny = table.resolve("America/New_York")!.zone;
  const footerNs = nsPerOp(15, 50_000, (i) => table.periodAt(ny, futureTimes[i & (N - 1)]!).type.utoff);

  console.log("tz tables");
  console.log(`  build (parse+compile+encode, median of 5): ${median(buildMs).toFixed(0)} ms   (goal < 5000 ms)`);
  console.log(`  zones.bin: ${bytes.length} bytes, ${table.names.length} names, tzdb ${table.tzdbVersion}; load ${loadMs.toFixed(1)} ms`);
  console.log("  lookup cost, median ns per call            ns     x baseline");
  const row = (label: string, ns: number, goal: string) =>
    console.log(`  ${label.padEnd(40)} ${ns.toFixed(1).padStart(7)}  ${(ns / baseline).toFixed(2).padStart(6)}   ${goal}`);
  row("baseline: Map.get of a lowercase name", baseline, "");
  row("name -> zone (resolve, case-insensitive)", resolveNs, "");
  row("period for now (cached)", nowNs, "goal < 1000 ns");
  row("period for a random instant 1800-2500", randomNs, "goal < 2000 ns");
  row("period 2100-2500, footer rules (no cache)", footerNs, "");
}

if (import.meta.main) await benchTz();
