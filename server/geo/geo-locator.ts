// Latitude, longitude -> timezone(s), from generated/geo.bin (format: formats/geo-format.ts).
// The answer is geo-tz's `find` from its `all` product, recompiled: the same quadtree
// descent (root box, midpoints, `>=` rule, clamping at the poles and the antimeridian),
// a zone read straight from the tree where a quad lies inside one zone, and near borders
// an exact even-odd test against the polygon edges kept in that cell. A lookup reads typed
// arrays only: no file read, no allocation.

import {
  CHILD_ANSWER, CHILD_NODE, CHILD_VALUE_MASK, DELTA_ESCAPE, MASK_TABLE_BITS, MAX_LEAF_FEATURES, SEA,
  decodeGeoTable, referencePoint, type GeoTableData,
} from "../formats/geo-format.ts";
import { mapTable } from "../formats/map-table.ts";

// geo-tz's root box and clamps (find.ts): a pole or the antimeridian is nudged inside it.
const EDGE_LAT = 89.9999;
const EDGE_LON = 179.9999;
const MICRO = 1e6;

export class GeoTable {
  readonly data: GeoTableData;
  /** Each answer's zone names, the data's first one first. Built once at load. */
  readonly answers: readonly (readonly string[])[];
  /** Where the file came from (geo-tz version, boundary release), as the build wrote it. */
  readonly metadata: Record<string, unknown>;
  private readonly nodes: Uint32Array;
  private readonly cells: Uint32Array;
  private readonly stream: Int16Array;
  private readonly reference = new Float64Array(2);
  /** The border cell the last lookup ended in, or -1 (for benchmarks: border cells cost most). */
  lastCell = -1;
  private readonly maskTables: Uint32Array;
  private readonly oceanBands: Float64Array;
  private readonly oceanAnswers: Uint32Array;
  private readonly oceanCount: number;

  constructor(data: GeoTableData) {
    this.data = data;
    this.metadata = data.metadata;
    this.nodes = data.nodes;
    this.cells = data.cells;
    this.stream = data.stream;
    this.maskTables = data.maskTables;
    this.oceanBands = data.oceanBands;
    this.oceanAnswers = data.oceanAnswers;
    this.oceanCount = data.oceanBands.length / 2;
    const answers: string[][] = [];
    for (let a = 0; a + 1 < data.answerOffsets.length; a++) {
      const list: string[] = [];
      for (let i = data.answerOffsets[a]!; i < data.answerOffsets[a + 1]!; i++) list.push(data.names[data.answerZones[i]!]!);
      answers.push(list);
    }
    this.answers = answers;
  }

  /** Maps the file read-only (formats/map-table.ts): workers share its pages. */
  static load(path: string): GeoTable {
    return new GeoTable(decodeGeoTable(mapTable(path), path));
  }

  /** The answer index (into `answers`) for a point; -1 only for a non-finite or out-of-range
   *  input, which callers reject first. */
  answerAt(lat: number, lon: number): number {
    if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) return -1;
    if (lat === 90) return this.oceanAnswers[2 * this.oceanCount + 1]!; // geo-tz: every nautical zone
    const originalLon = lon;
    if (lat >= EDGE_LAT) lat = EDGE_LAT;
    else if (lat <= -EDGE_LAT) lat = -EDGE_LAT;
    if (lon >= EDGE_LON) lon = EDGE_LON;
    else if (lon <= -EDGE_LON) lon = -EDGE_LON;
    let top = EDGE_LAT;
    let bottom = -EDGE_LAT;
    let left = -EDGE_LON;
    let right = EDGE_LON;
    let midLat = 0;
    let midLon = 0;
    let node = 0;
    const nodes = this.nodes;
    for (;;) {
      let quad: number;
      if (lat >= midLat && lon >= midLon) {
        quad = 0;
        bottom = midLat;
        left = midLon;
      } else if (lat >= midLat && lon < midLon) {
        quad = 1;
        bottom = midLat;
        right = midLon;
      } else if (lat < midLat && lon < midLon) {
        quad = 2;
        top = midLat;
        right = midLon;
      } else {
        quad = 3;
        top = midLat;
        left = midLon;
      }
      const word = nodes[4 * node + quad]!;
      const kind = word >>> 30;
      const value = word & CHILD_VALUE_MASK;
      if (kind === CHILD_NODE) {
        node = value;
        midLat = (top + bottom) / 2;
        midLon = (left + right) / 2;
        continue;
      }
      this.lastCell = kind === CHILD_ANSWER ? -1 : value;
      const answer = kind === CHILD_ANSWER ? value : this.cellAnswer(value, lat, lon, top, bottom, left, right);
      return answer === SEA ? this.seaAnswer(originalLon) : answer;
    }
  }

  /** The zone names at a point, the first being the one to answer with. */
  zonesAt(lat: number, lon: number): readonly string[] {
    const a = this.answerAt(lat, lon);
    return a < 0 ? [] : this.answers[a]!;
  }

  /**
   * Even-odd inside a border cell: the features containing the cell's reference point r are
   * stored; walking the segment r -> p, every edge it crosses flips the features that edge
   * bounds. Coordinates are microdegrees relative to r, so the vertices are exact integers.
   * A vertex on the line r-p counts as being on its left, for both edges that share it.
   */
  private cellAnswer(cell: number, lat: number, lon: number, top: number, bottom: number, left: number, right: number): number {
    const info = this.cells[2 * cell + 1]!;
    const r = this.reference;
    referencePoint(info >>> (MASK_TABLE_BITS + MAX_LEAF_FEATURES), top, bottom, left, right, r);
    const px = lon * MICRO - r[0]!;
    const py = lat * MICRO - r[1]!;
    let state = (info >>> MASK_TABLE_BITS) & ((1 << MAX_LEAF_FEATURES) - 1);
    const s = this.stream;
    let k = this.cells[2 * cell]!;
    const chains = s[k++]!;
    for (let c = 0; c < chains; c++) {
      const mask = s[k]!;
      const count = s[k + 1]!;
      k += 2;
      let ax = 0;
      let ay = 0;
      let sideA = false;
      for (let v = 0; v < count; v++) {
        let dx = s[k]!;
        let dy: number;
        if (dx === DELTA_ESCAPE) {
          dx = (s[k + 1]! & 0xffff) | (s[k + 2]! << 16);
          dy = (s[k + 3]! & 0xffff) | (s[k + 4]! << 16);
          k += 5;
        } else {
          dy = s[k + 1]!;
          k += 2;
        }
        const bx = ax + dx;
        const by = ay + dy;
        const sideB = px * by - py * bx >= 0;
        if (v > 0 && sideA !== sideB) {
          // The edge a-b straddles the line r-p; it crosses the segment when r and p lie on
          // opposite sides of it. r (the origin) is never on an edge's line (the build
          // checks), and that side is exact: integers.
          const sideR = ax * by - ay * bx > 0;
          const sideP = (bx - ax) * (py - ay) - (by - ay) * (px - ax) > 0;
          if (sideR !== sideP) state ^= mask;
        }
        ax = bx;
        ay = by;
        sideA = sideB;
      }
    }
    return this.maskTables[(info & ((1 << MASK_TABLE_BITS) - 1)) + state]!;
  }

  /** geo-tz's getTimezoneAtSea: the band of the longitude, or both bands on their edge. */
  private seaAnswer(lon: number): number {
    const n = this.oceanCount;
    if (lon === -180 || lon === 180) return this.oceanAnswers[2 * n]!;
    const bands = this.oceanBands;
    for (let i = 0; i < n; i++) {
      if (bands[2 * i]! <= lon && bands[2 * i + 1]! >= lon) {
        const alsoNext = i + 1 < n && bands[2 * i + 2]! <= lon && bands[2 * i + 3]! >= lon;
        return this.oceanAnswers[alsoNext ? n + i : i]!;
      }
    }
    return -1;
  }
}
