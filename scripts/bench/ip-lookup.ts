// `bun run bench` (IP part): the IP tables' size on disk and in memory, and the median
// cost of one address lookup (parse, unwrap/reserved check, binary search), with a Map
// lookup measured in the same run as the baseline.

import { statSync } from "node:fs";
import { join } from "node:path";
import { parseIp } from "../../server/ip/address.ts";
import { IPV4_FILE, IPV6_FILE } from "../../server/formats/ip-format.ts";
import { IpTables } from "../../server/ip/ip-locator.ts";
import { lookupKey } from "../../server/ip/special-ranges.ts";
import { nsPerOp } from "./timing.ts";

export async function benchIp(dataDir: string): Promise<void> {
  const heapBefore = process.memoryUsage().arrayBuffers;
  const tables = await IpTables.load(dataDir);
  const heapAfter = process.memoryUsage().arrayBuffers;
  let seed = 99;
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const N = 1 << 14;
  const v4 = Array.from({ length: N }, () => `${1 + Math.floor(random() * 222)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`);
  const v6 = Array.from({ length: N }, () => `2${Math.floor(random() * 0xfff).toString(16).padStart(3, "0")}:${Math.floor(random() * 0xffff).toString(16)}:${Math.floor(random() * 0xffff).toString(16)}::1`);
  const keys4 = v4.map((a) => lookupKey(parseIp(a)!));
  const keys6 = v6.map((a) => lookupKey(parseIp(a)!));
  const baselineMap = new Map(v4.map((a, i) => [a, i]));

  const lookup = (text: string) => {
    const key = lookupKey(parseIp(text)!);
    return key.version === 0 ? null : tables.zoneFor(key);
  };
  const baseline = nsPerOp(15, 200_000, (i) => baselineMap.get(v4[i & (N - 1)]!)!);
  const search4 = nsPerOp(15, 200_000, (i) => { const k = keys4[i & (N - 1)]!; return k.version === 0 ? 0 : (tables.zoneFor(k)?.length ?? 0); });
  const search6 = nsPerOp(15, 200_000, (i) => { const k = keys6[i & (N - 1)]!; return k.version === 0 ? 0 : (tables.zoneFor(k)?.length ?? 0); });
  const full4 = nsPerOp(15, 200_000, (i) => lookup(v4[i & (N - 1)]!)?.length ?? 0);
  const full6 = nsPerOp(15, 200_000, (i) => lookup(v6[i & (N - 1)]!)?.length ?? 0);

  const disk = [IPV4_FILE, IPV6_FILE].map((f) => statSync(join(dataDir, f)).size);
  console.log("ip tables");
  console.log(`  ranges: ${tables.rangeCounts.v4} IPv4, ${tables.rangeCounts.v6} IPv6`);
  console.log(`  on disk: ${IPV4_FILE} ${disk[0]} bytes, ${IPV6_FILE} ${disk[1]} bytes; in memory: ${heapAfter - heapBefore} bytes of array buffers`);
  console.log("  lookup cost, median ns per call            ns     x baseline");
  const row = (label: string, ns: number, goal = "") =>
    console.log(`  ${label.padEnd(40)} ${ns.toFixed(1).padStart(7)}  ${(ns / baseline).toFixed(2).padStart(6)}   ${goal}`);
  row("baseline: Map.get of an address string", baseline);
  row("binary search, IPv4", search4, "goal < 500 ns");
  row("binary search, IPv6 /64", search6, "goal < 500 ns");
  row("parse + classify + search, IPv4 text", full4);
  row("parse + classify + search, IPv6 text", full6);
}

if (import.meta.main) await benchIp(process.env.DATA_DIR || join(import.meta.dir, "..", "..", "generated"));
