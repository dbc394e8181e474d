// One geo-tz leaf (a quad and the polygons clipped to it) -> our quadtree below it. A quad
// that no edge touches stores the answer at its centre; one with at most MAX_EDGES edges (or
// too small to split) becomes a border cell: a reference point, the features containing it,
// and the edges touching the cell as chains of consecutive ring vertices.
// Coordinates are integer microdegrees, the data's own precision (checked per vertex).

import {
  CHILD_ANSWER, CHILD_CELL, CHILD_NODE, DELTA_ESCAPE, MASK_TABLE_BITS, MAX_LEAF_FEATURES, referencePoint,
} from "../../server/formats/geo-format.ts";
import type { LeafFeature } from "./geo-source.ts";
import { childWord, quadrant, type Rect, type TableWriter } from "./table-writer.ts";

/** A cell keeps at most this many edges unless it is already tiny: the lookup's cost. */
const MAX_EDGES = 48;
/** Cells narrower than this (microdegrees, ~5 m) are not split further. */
const MIN_CELL = 48;
/** An edge belongs to every cell within this margin (µdeg): rounding in the runtime's
 *  lat * 1e6 then never puts a point beyond the edges its cell holds. */
const MARGIN = 1;
const MICRO = 1e6;

export interface LeafStats {
  inexactVertices: number;
  sharedEdges: number;
  referenceRetries: number;
}

class LeafGeometry {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  /** The features whose boundary the edge starting at each vertex is (bit i = feature i);
   *  0 where no stored edge starts. */
  readonly maskOf: Uint8Array;
  readonly edges: Int32Array;
  private readonly bandCount: number;
  private readonly bandLow: number;
  private readonly bandHeight: number;
  private readonly bandStarts: Int32Array;
  private readonly bandEdges: Int32Array;

  constructor(features: LeafFeature[], stats: LeafStats) {
    let total = 0;
    for (const f of features) for (const p of f.polygons) for (const ring of p) total += ring.length;
    this.xs = new Float64Array(total);
    this.ys = new Float64Array(total);
    this.maskOf = new Uint8Array(total);
    const edges: number[] = [];
    let v = 0;
    features.forEach((f, fi) => {
      for (const p of f.polygons) {
        for (const ring of p) {
          ring.forEach(([lon, lat], i) => {
            const x = Math.round(lon! * MICRO);
            const y = Math.round(lat! * MICRO);
            if (x / MICRO !== lon || y / MICRO !== lat) stats.inexactVertices++;
            this.xs[v] = x;
            this.ys[v] = y;
            // Ring i's edges run from vertex i to i + 1 (GeoJSON rings repeat their first vertex).
            if (i + 1 < ring.length) {
              this.maskOf[v] = 1 << fi;
              edges.push(v);
            }
            v++;
          });
        }
      }
    });
    this.edges = this.shareEdges(edges, stats);
    // Horizontal bands, so a ray from a reference point tests only the edges at its height.
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < total; i++) {
      low = Math.min(low, this.ys[i]!);
      high = Math.max(high, this.ys[i]!);
    }
    const bands = Math.max(1, Math.min(4096, Math.ceil(this.edges.length / 8)));
    this.bandCount = bands;
    this.bandLow = low;
    this.bandHeight = Math.max(1, (high - low + 1) / bands);
    const counts = new Int32Array(bands + 1);
    const spanOf = (e: number) => [this.band(Math.min(this.ys[e]!, this.ys[e + 1]!)), this.band(Math.max(this.ys[e]!, this.ys[e + 1]!))] as const;
    for (const e of this.edges) {
      const [b0, b1] = spanOf(e);
      for (let b = b0; b <= b1; b++) counts[b + 1]!++;
    }
    for (let b = 0; b < bands; b++) counts[b + 1]! += counts[b]!;
    this.bandStarts = counts.slice();
    this.bandEdges = new Int32Array(counts[bands]!);
    for (const e of this.edges) {
      const [b0, b1] = spanOf(e);
      for (let b = b0; b <= b1; b++) this.bandEdges[counts[b]!++] = e;
    }
  }

  /** A border two zones share is in both polygons: keep one copy that flips both (a copy
   *  twice in one polygon cancels, as even-odd says). Zero-length edges cross nothing. */
  private shareEdges(edges: number[], stats: LeafStats): Int32Array {
    const first = new Map<string, number>();
    const { xs, ys, maskOf } = this;
    for (const e of edges) {
      const a = `${xs[e]},${ys[e]}`;
      const b = `${xs[e + 1]},${ys[e + 1]}`;
      if (a === b) {
        maskOf[e] = 0;
        continue;
      }
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      const kept = first.get(key);
      if (kept === undefined) {
        first.set(key, e);
      } else {
        maskOf[kept] = maskOf[kept]! ^ maskOf[e]!;
        maskOf[e] = 0;
        stats.sharedEdges++;
      }
    }
    return Int32Array.from(edges.filter((e) => maskOf[e] !== 0));
  }

  private band(y: number): number {
    const b = Math.floor((y - this.bandLow) / this.bandHeight);
    return Math.max(0, Math.min(this.bandCount - 1, b));
  }

  /** The features containing (rx, ry), by a ray to the east over every edge of the leaf:
   *  exact, the inputs being integers. The point must not lie on an edge. */
  stateAt(rx: number, ry: number): number {
    const xs = this.xs;
    const ys = this.ys;
    const b = this.band(ry);
    let state = 0;
    for (let i = this.bandStarts[b]!; i < this.bandStarts[b + 1]!; i++) {
      const e = this.bandEdges[i]!;
      const ay = ys[e]!;
      const by = ys[e + 1]!;
      if ((ay > ry) === (by > ry)) continue;
      const ax = xs[e]!;
      const d = (ry - ay) * (xs[e + 1]! - ax) - (rx - ax) * (by - ay);
      if (by > ay ? d > 0 : d < 0) state ^= this.maskOf[e]!;
    }
    return state;
  }

  touches(e: number, r: Rect): boolean {
    const x0 = r.left * MICRO - MARGIN;
    const x1 = r.right * MICRO + MARGIN;
    const y0 = r.bottom * MICRO - MARGIN;
    const y1 = r.top * MICRO + MARGIN;
    const ax = this.xs[e]!;
    const ay = this.ys[e]!;
    const bx = this.xs[e + 1]!;
    const by = this.ys[e + 1]!;
    if ((ax < x0 && bx < x0) || (ax > x1 && bx > x1) || (ay < y0 && by < y0) || (ay > y1 && by > y1)) return false;
    const dx = bx - ax;
    const dy = by - ay;
    const s1 = dx * (y0 - ay) - dy * (x0 - ax);
    const s2 = dx * (y0 - ay) - dy * (x1 - ax);
    const s3 = dx * (y1 - ay) - dy * (x0 - ax);
    const s4 = dx * (y1 - ay) - dy * (x1 - ax);
    return !((s1 > 0 && s2 > 0 && s3 > 0 && s4 > 0) || (s1 < 0 && s2 < 0 && s3 < 0 && s4 < 0));
  }

  /** Whether (rx, ry) lies on the line of edge e (exact). A zero-length edge has no line
   *  (and never straddles anything, so the runtime never asks). */
  collinear(e: number, rx: number, ry: number): boolean {
    if (this.xs[e] === this.xs[e + 1] && this.ys[e] === this.ys[e + 1]) return false;
    const ax = this.xs[e]! - rx;
    const ay = this.ys[e]! - ry;
    return ax * (this.ys[e + 1]! - ry) - ay * (this.xs[e + 1]! - rx) === 0;
  }
}

/** Compiles one leaf; returns the child word its parent stores. `maskTable` is the start of
 *  the leaf's answers by feature set (index 0: no feature, i.e. sea). */
export function compileLeaf(out: TableWriter, features: LeafFeature[], rect: Rect, maskTable: number,
  answerOfMask: (mask: number) => number, stats: LeafStats): number {
  const g = new LeafGeometry(features, stats);
  // Products of coordinate differences within the leaf must stay exact in doubles (< 2^53).
  let extent = Math.max(rect.right - rect.left, rect.top - rect.bottom) * MICRO;
  for (let i = 0; i < g.xs.length; i++) {
    extent = Math.max(extent, Math.abs(g.xs[i]! - rect.left * MICRO), Math.abs(g.ys[i]! - rect.bottom * MICRO));
  }
  if (!(extent < 2 ** 26)) throw new Error(`geo: the leaf at ${JSON.stringify(rect)} is too large for exact arithmetic`);
  const split = (r: Rect, edges: Int32Array): number => {
    if (edges.length === 0) {
      referencePoint(0, r.top, r.bottom, r.left, r.right, reference);
      return childWord(CHILD_ANSWER, answerOfMask(g.stateAt(reference[0]!, reference[1]!)));
    }
    if (edges.length <= MAX_EDGES || (r.right - r.left) * MICRO < MIN_CELL) return cell(r, edges);
    const node = out.allocNode();
    for (let q = 0; q < 4; q++) {
      const child = quadrant(r, q);
      out.nodes.set(4 * node + q, split(child, edges.filter((e) => g.touches(e, child))));
    }
    return childWord(CHILD_NODE, node);
  };
  const reference = new Float64Array(2);
  const cell = (r: Rect, edges: Int32Array): number => {
    // The reference point must not lie on any edge's line (the runtime's crossing test relies
    // on it): try other points of the cell until one is off them all.
    let k = 0;
    for (;; k++) {
      if (k > 255) throw new Error(`geo: no reference point off every edge in the cell ${JSON.stringify(r)}`);
      referencePoint(k, r.top, r.bottom, r.left, r.right, reference);
      if (!edges.some((e) => g.collinear(e, reference[0]!, reference[1]!))) break;
      stats.referenceRetries++;
    }
    const [rx, ry] = reference as unknown as [number, number];
    const index = out.cellCount;
    out.cells.push(out.stream.length);
    out.cells.push((maskTable | (g.stateAt(rx, ry) << MASK_TABLE_BITS) | (k << (MASK_TABLE_BITS + MAX_LEAF_FEATURES))) >>> 0);
    const chainCountAt = out.stream.length;
    out.stream.push(0);
    let chains = 0;
    for (let i = 0; i < edges.length;) {
      let j = i + 1;
      while (j < edges.length && edges[j] === edges[j - 1]! + 1 && g.maskOf[edges[j]!] === g.maskOf[edges[i]!]) j++;
      // Edges i..j-1 are consecutive in one ring, bounding the same features: vertices
      // edges[i] .. edges[j-1] + 1.
      const first = edges[i]!;
      const last = edges[j - 1]! + 1;
      if (last - first + 1 > 32767 || chains === 32767) throw new Error("geo: a border cell holds too many vertices");
      out.stream.push(g.maskOf[first]!);
      out.stream.push(last - first + 1);
      pushDelta(out, g.xs[first]! - rx, g.ys[first]! - ry);
      for (let v = first + 1; v <= last; v++) pushDelta(out, g.xs[v]! - g.xs[v - 1]!, g.ys[v]! - g.ys[v - 1]!);
      chains++;
      i = j;
    }
    out.stream.set(chainCountAt, chains);
    return childWord(CHILD_CELL, index);
  };
  return split(rect, g.edges.filter((e) => g.touches(e, rect)));
}

function pushDelta(out: TableWriter, dx: number, dy: number): void {
  if (dx > -32768 && dx < 32768 && dy > -32768 && dy < 32768) {
    out.stream.push(dx);
    out.stream.push(dy);
    return;
  }
  for (const word of [DELTA_ESCAPE, dx & 0xffff, dx >> 16, dy & 0xffff, dy >> 16]) out.stream.push(word);
}
