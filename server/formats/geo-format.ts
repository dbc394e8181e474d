// generated/geo.bin: the one definition of the coordinates table. Written by
// scripts/geo/build-geo.ts, read by server/geo/geo-locator.ts. Little-endian; every section
// is a typed-array view into the file, so a reader maps it and copies nothing but strings.
//
//   header (64 bytes)          magic "ZTGEO\0\0\0", u16 major, u16 minor, then u32 counts:
//                              nodeCount, cellCount, streamLength, answerCount,
//                              answerZoneCount, maskTableCount, oceanCount, nameCount,
//                              stringCount, stringBytes, then zeros
//   f64[oceanCount*2]          the nautical zones' longitude bands (left, right), east first
//   u32[nodeCount*4]           quadtree children in the order a, b, c, d (see CHILD_* below)
//   u32[cellCount*2]           border cells: start of the cell in the stream, and CELL_INFO
//   u32[answerCount+1]         start of each answer's zone list in answerZones, then its end
//   u32[maskTableCount]        per geo-tz leaf: the answer for each set of its features
//   u32[oceanCount*2+2]        answers at sea: each band alone, each band with the next one
//                              (its shared edge), both sides of the antimeridian, the pole
//   u32[stringCount+1]         string offsets (string-table.ts), then its end
//   u16[answerZoneCount]       zone name index of each answer's zones, in the data's order
//   i16[streamLength]          per border cell: chain count, then per chain: the features it
//                              bounds (bits), vertex count, first vertex relative to the
//                              cell's reference point, then each further vertex relative to
//                              the one before (all as `delta`s, see DELTA_ESCAPE)
//   u8[stringBytes]            the zone names, then one JSON string of source metadata
//
// The quadtree is geo-tz's own (same root box, same midpoint arithmetic, `>=` to the north
// and east), refined below its leaves; coordinates are integer microdegrees, the data's
// own precision.

import { encodeStrings, readStrings, writeStrings } from "./string-table.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const GEO_FILE = "geo.bin";
export const GEO_TABLE: TableKind = { magic: "ZTGEO\0\0\0", major: 1, minor: 0, what: "coordinates table" };

/** A child word: its top two bits say what the low 30 bits are. */
export const CHILD_NODE = 0;
export const CHILD_ANSWER = 1;
export const CHILD_CELL = 2;
export const CHILD_VALUE_MASK = 0x3fffffff;
/** The answer "no polygon here": the nautical zone of the longitude. */
export const SEA = CHILD_VALUE_MASK;

/** A border cell's info word: the leaf's mask table start (low 18 bits), the features
 *  containing the reference point (6 bits, bit i = feature i of the leaf), and which
 *  reference point (8 bits, see referencePoint). */
export const MASK_TABLE_BITS = 18;
export const MAX_LEAF_FEATURES = 6;
/** A delta is two words dx, dy; or this word and four more (32-bit dx, dy, low half first). */
export const DELTA_ESCAPE = -32768;

/**
 * A border cell's reference point, in integer microdegrees: its centre, or for `k` > 0 (a
 * centre on the line of one of its edges) another point inside it. Writer and reader both
 * call this with the cell's bounds as the descent computes them.
 */
export function referencePoint(k: number, top: number, bottom: number, left: number, right: number, out: Float64Array): void {
  const cx = Math.round(((left + right) / 2) * 1e6);
  const cy = Math.round(((top + bottom) / 2) * 1e6);
  const reach = Math.max(1, Math.floor(((right - left) * 1e6) / 2) - 2);
  out[0] = k === 0 ? cx : cx + ((k * 7919) % (2 * reach + 1)) - reach;
  out[1] = k === 0 ? cy : cy + ((k * 104729) % (2 * reach + 1)) - reach;
}

export interface GeoTableInput {
  oceanBands: Float64Array;
  nodes: Uint32Array;
  cells: Uint32Array;
  answerOffsets: Uint32Array;
  maskTables: Uint32Array;
  oceanAnswers: Uint32Array;
  answerZones: Uint16Array;
  stream: Int16Array;
  names: string[];
  metadata: Record<string, unknown>;
}

/** A decoded table has the writer's parts, as views into the file. */
export type GeoTableData = GeoTableInput;

interface Counts {
  nodeCount: number;
  cellCount: number;
  streamLength: number;
  answerCount: number;
  answerZoneCount: number;
  maskTableCount: number;
  oceanCount: number;
  nameCount: number;
  stringCount: number;
  stringBytes: number;
}
const COUNT_KEYS = ["nodeCount", "cellCount", "streamLength", "answerCount", "answerZoneCount",
  "maskTableCount", "oceanCount", "nameCount", "stringCount", "stringBytes"] as const;

function layout(c: Counts) {
  const oceanBands = HEADER_BYTES;
  const nodes = oceanBands + 16 * c.oceanCount;
  const cells = nodes + 16 * c.nodeCount;
  const answerOffsets = cells + 8 * c.cellCount;
  const maskTables = answerOffsets + 4 * (c.answerCount + 1);
  const oceanAnswers = maskTables + 4 * c.maskTableCount;
  const stringOffsets = oceanAnswers + 4 * (2 * c.oceanCount + 2);
  const answerZones = stringOffsets + 4 * (c.stringCount + 1);
  const stream = answerZones + 2 * c.answerZoneCount;
  const blob = stream + 2 * c.streamLength;
  return { oceanBands, nodes, cells, answerOffsets, maskTables, oceanAnswers, stringOffsets, answerZones, stream, blob, total: blob + c.stringBytes };
}

export function encodeGeoTable(input: GeoTableInput): Uint8Array {
  const strings = encodeStrings([...input.names, JSON.stringify(input.metadata)]);
  const counts: Counts = {
    nodeCount: input.nodes.length / 4,
    cellCount: input.cells.length / 2,
    streamLength: input.stream.length,
    answerCount: input.answerOffsets.length - 1,
    answerZoneCount: input.answerZones.length,
    maskTableCount: input.maskTables.length,
    oceanCount: input.oceanBands.length / 2,
    nameCount: input.names.length,
    stringCount: strings.encoded.length,
    stringBytes: strings.bytes,
  };
  const at = layout(counts);
  const buffer = new ArrayBuffer(at.total);
  const view = writeHeader(buffer, GEO_TABLE);
  COUNT_KEYS.forEach((k, i) => view.setUint32(12 + 4 * i, counts[k], true));
  new Float64Array(buffer, at.oceanBands, input.oceanBands.length).set(input.oceanBands);
  new Uint32Array(buffer, at.nodes, input.nodes.length).set(input.nodes);
  new Uint32Array(buffer, at.cells, input.cells.length).set(input.cells);
  new Uint32Array(buffer, at.answerOffsets, input.answerOffsets.length).set(input.answerOffsets);
  new Uint32Array(buffer, at.maskTables, input.maskTables.length).set(input.maskTables);
  new Uint32Array(buffer, at.oceanAnswers, input.oceanAnswers.length).set(input.oceanAnswers);
  writeStrings(buffer, at.stringOffsets, at.blob, strings);
  new Uint16Array(buffer, at.answerZones, input.answerZones.length).set(input.answerZones);
  new Int16Array(buffer, at.stream, input.stream.length).set(input.stream);
  return new Uint8Array(buffer);
}

/** Reads and validates a geo.bin image (any ArrayBuffer, e.g. a read-only mapping). */
export function decodeGeoTable(buffer: ArrayBuffer, file: string): GeoTableData {
  const { view, fail, checkLength } = openTable(buffer, file, GEO_TABLE);
  const counts = Object.fromEntries(COUNT_KEYS.map((k, i) => [k, view.getUint32(12 + 4 * i, true)])) as unknown as Counts;
  if (counts.nameCount + 1 !== counts.stringCount) fail("inconsistent string counts");
  const at = layout(counts);
  checkLength(at.total);
  const strings = readStrings(buffer, at.stringOffsets, at.blob, counts.stringCount, counts.stringBytes, fail);
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(strings[counts.nameCount]!) as Record<string, unknown>;
  } catch {
    fail("source metadata is not JSON");
  }
  const data: GeoTableData = {
    oceanBands: new Float64Array(buffer, at.oceanBands, 2 * counts.oceanCount),
    nodes: new Uint32Array(buffer, at.nodes, 4 * counts.nodeCount),
    cells: new Uint32Array(buffer, at.cells, 2 * counts.cellCount),
    answerOffsets: new Uint32Array(buffer, at.answerOffsets, counts.answerCount + 1),
    maskTables: new Uint32Array(buffer, at.maskTables, counts.maskTableCount),
    oceanAnswers: new Uint32Array(buffer, at.oceanAnswers, 2 * counts.oceanCount + 2),
    answerZones: new Uint16Array(buffer, at.answerZones, counts.answerZoneCount),
    stream: new Int16Array(buffer, at.stream, counts.streamLength),
    names: strings.slice(0, counts.nameCount),
    metadata,
  };
  validateReferences(data, fail);
  return data;
}

/** Every index points inside its section, so a lookup never reads past an array. */
function validateReferences(d: GeoTableData, fail: (reason: string) => never): void {
  const answerCount = d.answerOffsets.length - 1;
  const isAnswer = (a: number) => a === SEA || a < answerCount;
  const nodeCount = d.nodes.length / 4;
  const cellCount = d.cells.length / 2;
  if (nodeCount === 0) fail("the quadtree has no root");
  for (let i = 0; i < d.nodes.length; i++) {
    const word = d.nodes[i]!;
    const value = word & CHILD_VALUE_MASK;
    const kind = word >>> 30;
    // Children come after their parent, so every descent ends.
    if (kind === CHILD_NODE ? value <= i >> 2 || value >= nodeCount
      : kind === CHILD_ANSWER ? !isAnswer(value)
      : kind === CHILD_CELL ? value >= cellCount : true) fail(`quadtree node ${i >> 2}: child ${i & 3} is out of range`);
  }
  const s = d.stream;
  const n = s.length;
  for (let c = 0; c < cellCount; c++) {
    const info = d.cells[2 * c + 1]!;
    const table = info & ((1 << MASK_TABLE_BITS) - 1);
    // Every word a lookup reads must lie inside its section (it reads them without checks):
    // the chains inside the stream, and the mask table entry of every feature set they form.
    let features = (info >>> MASK_TABLE_BITS) & ((1 << MAX_LEAF_FEATURES) - 1);
    let k = d.cells[2 * c]!;
    const chains = k < n ? s[k++]! : -1;
    if (chains < 0) fail(`cell ${c} lies outside the stream`);
    for (let ch = 0; ch < chains && k <= n; ch++) {
      const mask = k < n ? s[k]! : -1;
      const vertices = k + 1 < n ? s[k + 1]! : 0;
      if (mask < 0 || mask >= 1 << MAX_LEAF_FEATURES || vertices < 2) fail(`cell ${c}: chain ${ch} is malformed`);
      features |= mask;
      k += 2;
      for (let v = 0; v < vertices && k <= n; v++) k += s[k] === DELTA_ESCAPE ? 5 : 2;
    }
    if (k > n) fail(`cell ${c}: its chains run past the stream`);
    if (table + features >= d.maskTables.length) fail(`cell ${c}: its feature sets lie past the mask tables`);
  }
  for (const a of d.maskTables) if (!isAnswer(a)) fail("a feature mask names an answer out of range");
  for (const a of d.oceanAnswers) if (!(a < answerCount)) fail("an answer at sea is out of range");
  for (let a = 0; a < answerCount; a++) {
    if (d.answerOffsets[a]! >= d.answerOffsets[a + 1]! || d.answerOffsets[a + 1]! > d.answerZones.length) fail(`answer ${a} is out of range`);
  }
  for (const z of d.answerZones) if (z >= d.names.length) fail("an answer names a zone out of range");
}
