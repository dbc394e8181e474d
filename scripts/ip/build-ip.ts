// `bun run build`, IP part: an mmdb source -> generated/ip4.bin and ip6.bin. Every network
// of the source is walked in address order, its timezone derived once per data record,
// mapped onto our tzdb names, and neighbours with the same zone merged; IPv6 is cut to
// /64 prefixes. Aliases of IPv4 inside IPv6 (::/64 with ::ffff:0:0/96, Teredo 2001::/32,
// 6to4 2002::/16) are not stored: the runtime unwraps those to IPv4 before looking up.

import { join } from "node:path";
import type { IpManifest } from "../../server/formats/manifest.ts";
import { encodeIpTable, IPV4_FILE, IPV6_FILE, NO_ZONE } from "../../server/formats/ip-format.ts";
import { sha256Hex, writeAtomically } from "../write-atomically.ts";
import type { IpSource } from "./ip-sources.ts";
import type { ZoneAtCoordinates } from "./zone-at-coordinates.ts";
import { ipv4StartNode, walkNetworks, type MmdbFile } from "./mmdb-tree.ts";

class RangeCollector {
  highs: number[] = [];
  lows: number[] = [];
  zones: number[] = [];
  /** /64s whose source networks disagree below the cut (first located network wins). */
  splitPrefixes = 0;

  add(high: number, low: number, zone: number): void {
    const n = this.zones.length;
    if (n > 0 && this.highs[n - 1] === high && this.lows[n - 1] === low) {
      // A network below the /64 cut, in the same /64 as the previous one.
      if (this.zones[n - 1] === NO_ZONE && zone !== NO_ZONE) {
        this.zones[n - 1] = zone;
        if (n > 1 && this.zones[n - 2] === zone) this.pop();
      } else if (zone !== NO_ZONE && zone !== this.zones[n - 1]) {
        this.splitPrefixes++;
      }
      return;
    }
    if (n > 0 && this.zones[n - 1] === zone) return;
    this.highs.push(high);
    this.lows.push(low);
    this.zones.push(zone);
  }

  private pop(): void {
    this.highs.pop();
    this.lows.pop();
    this.zones.pop();
  }
}

/** The IPv6 subtrees that are IPv4 under another name, skipped when walking a source. */
export const isIpv4Alias = (high: number, low: number, prefix: number): boolean =>
  (prefix === 64 && high === 0 && low === 0) || // ::/64: IPv4 itself, and IPv4-mapped
  (prefix === 32 && high === 0x20010000) || // Teredo
  (prefix === 16 && high === 0x20020000); // 6to4

export async function buildIp(source: IpSource, atCoordinates: ZoneAtCoordinates, outDir: string, validNames: ReadonlySet<string>, builtAt: string): Promise<IpManifest> {
  const started = performance.now();
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const unknownZones: Record<string, number> = {};
  const zoneCache = new Map<MmdbFile, Map<number, number>>();

  const zoneIndexOf = (file: MmdbFile, pointer: number | null): number => {
    if (pointer === null) return NO_ZONE;
    let cache = zoneCache.get(file);
    if (!cache) zoneCache.set(file, (cache = new Map()));
    const cached = cache.get(pointer);
    if (cached !== undefined) return cached;
    const name = source.zoneOf(file, pointer, atCoordinates);
    let index: number = NO_ZONE;
    if (name !== null && validNames.has(name)) {
      index = nameIndex.get(name) ?? -1;
      if (index < 0) {
        index = names.length;
        names.push(name);
        nameIndex.set(name, index);
      }
    } else if (name !== null) {
      unknownZones[name] = (unknownZones[name] ?? 0) + 1;
    }
    cache.set(pointer, index);
    return index;
  };

  const v4 = new RangeCollector();
  walkNetworks(source.v4, ipv4StartNode(source.v4), 32, (high, _low, _prefix, pointer) => {
    v4.add(high, 0, zoneIndexOf(source.v4, pointer));
  });

  const v6 = new RangeCollector();
  if (source.v6.ipVersion === 6) {
    walkNetworks(source.v6, 0, 128, (high, low, _prefix, pointer) => {
      v6.add(high, low, zoneIndexOf(source.v6, pointer));
    }, isIpv4Alias);
  } else {
    v6.add(0, 0, NO_ZONE);
  }

  const metadata = { source: source.name, version: source.version, dataDate: source.dataDate, builtAt };
  const files: IpManifest["files"] = [];
  for (const [name, version, ranges] of [[IPV4_FILE, 4, v4], [IPV6_FILE, 6, v6]] as const) {
    const bytes = encodeIpTable({
      version,
      highs: Uint32Array.from(ranges.highs),
      lows: version === 6 ? Uint32Array.from(ranges.lows) : null,
      zones: Uint16Array.from(ranges.zones),
      names,
      metadata,
    });
    writeAtomically(join(outDir, name), bytes);
    files.push({ name, bytes: bytes.length, sha256: sha256Hex(bytes) });
  }
  return {
    source: source.name,
    version: source.version,
    dataDate: source.dataDate,
    license: source.license,
    credit: source.credit,
    ranges: { v4: v4.zones.length, v6: v6.zones.length },
    splitV6Prefixes: v6.splitPrefixes,
    unknownZones,
    files,
    buildMs: Math.round(performance.now() - started),
  };
}
