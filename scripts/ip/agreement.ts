// The IP tables against the source they were built from: random addresses inside
// networks the source covers, each looked up both ways, (1) in our compiled tables and
// (2) directly in the mmdb with mmdb-lib plus the coordinates table, must give the same zone.
// `bun scripts/ip/agreement.ts [count=100000] [seed]` prints the result; test/ip runs a
// smaller sample.

import { join } from "node:path";
import { Reader } from "mmdb-lib";
import { formatIp, parseIp } from "../../server/ip/address.ts";
import { IpTables } from "../../server/ip/ip-locator.ts";
import { lookupKey } from "../../server/ip/special-ranges.ts";
import { DEFAULT_DATA_DIR } from "../paths.ts";
import { GEO_FILE } from "../../server/formats/geo-format.ts";
import { GeoTable } from "../../server/geo/geo-locator.ts";
import { dbipSource } from "./ip-sources.ts";
import { zoneAtCoordinates } from "./zone-at-coordinates.ts";
import { walkNetworks, type MmdbFile } from "./mmdb-tree.ts";

export interface AgreementResult {
  checked: { v4: number; v6: number };
  mismatches: string[];
}

interface Network {
  high: number;
  low: number;
  prefix: number;
}

function locatedNetworks(f: MmdbFile, maxDepth: number): Network[] {
  const out: Network[] = [];
  walkNetworks(f, 0, maxDepth, (high, low, prefix, pointer) => {
    if (pointer !== null) out.push({ high, low, prefix });
  });
  return out;
}

export async function checkAgreement(dataDir: string, count: number, seed = 1): Promise<AgreementResult> {
  const tables = await IpTables.load(dataDir);
  const source = await dbipSource();
  const atCoordinates = zoneAtCoordinates(GeoTable.load(join(dataDir, GEO_FILE)));
  let state = seed >>> 0 || 1;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  type DirectReader = { get(address: string): { latitude?: unknown; longitude?: unknown } | null };
  const direct = (reader: DirectReader, text: string): string | null => {
    const r = reader.get(text);
    return r ? atCoordinates(r.latitude, r.longitude) : null;
  };
  const mismatches: string[] = [];
  const checked = { v4: 0, v6: 0 };

  for (const version of [4, 6] as const) {
    const file = version === 4 ? source.v4 : source.v6;
    // DB-IP's records are not one of mmdb-lib's MaxMind response types.
    const reader = new Reader(file.db) as unknown as DirectReader;
    const networks = locatedNetworks(file, version === 4 ? 32 : 128);
    let attempts = 0;
    while ((version === 4 ? checked.v4 : checked.v6) < count && attempts++ < count * 20) {
      const n = networks[Math.floor(random() * networks.length)]!;
      let text: string;
      if (version === 4) {
        const size = 2 ** (32 - n.prefix);
        text = formatIp({ version: 4, value: n.high + Math.floor(random() * size) });
      } else {
        // A random address inside the network: random bits below its prefix (the top 64
        // bits are tracked exactly; the low 64 are free whenever prefix <= 64).
        const groups = new Uint16Array(8);
        const bits = [n.high >>> 16, n.high & 0xffff, n.low >>> 16, n.low & 0xffff];
        for (let g = 0; g < 8; g++) {
          const fixed = Math.max(0, Math.min(16, n.prefix - 16 * g));
          const rand = Math.floor(random() * 65536);
          const base = g < 4 ? bits[g]! : 0;
          const mask = fixed === 0 ? 0 : (0xffff << (16 - fixed)) & 0xffff;
          groups[g] = (base & mask) | (rand & ~mask & 0xffff);
        }
        if (n.prefix > 64) continue; // sub-/64 networks are looked up by their /64 (see build-ip.ts)
        text = formatIp({ version: 6, groups });
      }
      const key = lookupKey(parseIp(text)!);
      if (key.version === 0 || key.version !== version) continue; // reserved, or unwrapped to IPv4 before lookup
      const expected = direct(reader, text);
      const actual = tables.zoneFor(key);
      if (version === 4) checked.v4++;
      else checked.v6++;
      if (expected !== actual) mismatches.push(`${text}: table ${actual}, source ${expected}`);
    }
  }
  return { checked, mismatches };
}

if (import.meta.main) {
  const count = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 20261121);
  const started = performance.now();
  const result = await checkAgreement(process.env.DATA_DIR || DEFAULT_DATA_DIR, count, seed);
  console.log(`checked ${result.checked.v4} IPv4 and ${result.checked.v6} IPv6 addresses (seed ${seed}) in ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s: ${result.mismatches.length} mismatches`);
  for (const m of result.mismatches.slice(0, 20)) console.log(`  ${m}`);
  process.exit(result.mismatches.length === 0 ? 0 : 1);
}
