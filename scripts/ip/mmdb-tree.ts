// A walk over every network of a MaxMind DB search tree (the MaxMind DB format spec,
// section "Search tree"), in ascending address order. Neither mmdb-lib nor maxmind
// iterates networks, so the walk is ours; records of 24, 28 and 32 bits are read here,
// and data records are decoded by mmdb-lib's Decoder.

import Decoder from "mmdb-lib/lib/decoder";

export interface MmdbFile {
  path: string;
  db: Buffer;
  nodeCount: number;
  recordSize: 24 | 28 | 32;
  nodeByteSize: number;
  ipVersion: 4 | 6;
  searchTreeSize: number;
  buildEpoch: Date;
  databaseType: string;
  decoder: Decoder;
}

export function readRecord(f: MmdbFile, node: number, right: boolean): number {
  const db = f.db;
  const o = node * f.nodeByteSize;
  switch (f.recordSize) {
    case 24:
      return right ? (db[o + 3]! << 16) | (db[o + 4]! << 8) | db[o + 5]! : (db[o]! << 16) | (db[o + 1]! << 8) | db[o + 2]!;
    case 28:
      return right
        ? ((db[o + 3]! & 0x0f) * 0x1000000) + ((db[o + 4]! << 16) | (db[o + 5]! << 8) | db[o + 6]!)
        : ((db[o + 3]! & 0xf0) >>> 4) * 0x1000000 + ((db[o]! << 16) | (db[o + 1]! << 8) | db[o + 2]!);
    case 32:
      return db.readUInt32BE(o + (right ? 4 : 0));
  }
}

/** Decodes the data record a tree record points to. */
export function dataRecord(f: MmdbFile, pointer: number): unknown {
  return f.decoder.decodeFast(pointer - f.nodeCount + f.searchTreeSize).value;
}

/** A network whose first 64 bits are `high`:`low` (IPv4: `high` alone), `prefix` bits long. */
export type Visit = (high: number, low: number, prefix: number, pointer: number | null) => void;

/**
 * Depth-first, left (0) before right (1), so networks arrive in ascending order. Tracks
 * the first `trackBits` (32 or 64) bits of each network; deeper networks are reported
 * with the /64 they lie in. `skip` prunes subtrees (IPv4 aliases in an IPv6 tree); a
 * pruned subtree is reported as one network without data, so the visits still cover the
 * whole address space.
 */
export function walkNetworks(
  f: MmdbFile,
  startNode: number,
  maxDepth: number,
  visit: Visit,
  skip: (high: number, low: number, prefix: number) => boolean = () => false,
): void {
  const nodes: number[] = [startNode];
  const depths: number[] = [0];
  const highs: number[] = [0];
  const lows: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    const high = highs.pop()!;
    const low = lows.pop()!;
    if (node > f.nodeCount) {
      visit(high, low, depth, node);
      continue;
    }
    if (node === f.nodeCount) {
      visit(high, low, depth, null);
      continue;
    }
    if (depth >= maxDepth) throw new Error(`${f.path}: search tree deeper than ${maxDepth} bits`);
    // Push right first so that left is walked first.
    for (const bit of [1, 0]) {
      let h = high;
      let l = low;
      if (bit === 1) {
        if (depth < 32) h = (h + 2 ** (31 - depth));
        else if (depth < 64) l = (l + 2 ** (63 - depth));
      }
      nodes.push(skip(h, l, depth + 1) ? f.nodeCount : readRecord(f, node, bit === 1));
      depths.push(depth + 1);
      highs.push(h);
      lows.push(l);
    }
  }
}

/** The node an IPv4 address starts at in an IPv6 tree: 96 zero bits down from the root. */
export function ipv4StartNode(f: MmdbFile): number {
  if (f.ipVersion === 4) return 0;
  let node = 0;
  for (let i = 0; i < 96 && node < f.nodeCount; i++) node = readRecord(f, node, false);
  return node;
}
