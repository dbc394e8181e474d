// The site's world map of the zones: geo-tz's boundary polygons (the same source as
// geo.bin) compiled into one small TopoJSON file the browser draws with d3-geo.
//
// geo-tz stores its polygons clipped to quadtree leaves, and whole quads that lie inside one
// zone. Each piece becomes a feature; topojson-server finds the arcs the pieces share
// (borders between zones, and the cuts between two leaves of one zone, once coordinates are
// snapped to a grid), topojson-client merges each zone's pieces (dropping the cuts), and
// topojson-simplify then simplifies the arcs, which stay shared: a border simplified once
// is the same line for both zones. Zones too small to survive simplification keep a
// representative point, so the page can still draw them.

import { feature } from "topojson-client";
import { topology } from "topojson-server";
import { filter, filterWeight, presimplify, quantile, simplify } from "topojson-simplify";
import { quadrant, type Rect } from "../geo/table-writer.ts";
import type { GeoSource, QuadNode } from "../geo/geo-source.ts";

/** Snap grid of the input, in degrees (about 5 km): far below what a world map shows, and it
 *  removes most of the source's vertices before the topology is built. */
const SNAP = 0.05;
/** Share of arc vertices the simplification keeps (by Visvalingam weight). */
const KEEP = 0.05;
/** Rings smaller than this on the sphere (steradians; 4e-5 is about 1600 km²) are dropped. */
const MIN_RING = 4e-5;
/** Final quantization: 5000 steps across the world (about 8 km at the equator), then delta-encoded arcs. */
const QUANTIZE = 5000;
const ROOT: Rect = { top: 89.9999, bottom: -89.9999, left: -179.9999, right: 179.9999 };
const QUADS = ["a", "b", "c", "d"] as const;

type Ring = [number, number][];
type Piece = { type: "Feature"; properties: { tzid: string }; geometry: { type: "MultiPolygon"; coordinates: Ring[][] } };

const snap = (v: number) => Math.round(v / SNAP) * SNAP;

function snapRing(ring: number[][]): Ring | null {
  const out: Ring = [];
  for (const p of ring) {
    const x = +snap(p[0]!).toFixed(4);
    const y = +snap(p[1]!).toFixed(4);
    const last = out[out.length - 1];
    if (!last || last[0] !== x || last[1] !== y) out.push([x, y]);
  }
  if (out.length > 1 && out[0]![0] === out[out.length - 1]![0] && out[0]![1] === out[out.length - 1]![1]) out.pop();
  if (out.length < 3) return null;
  out.push([out[0]![0], out[0]![1]]);
  // Axis-parallel edges get a vertex at every grid step: the cuts between quads are such
  // edges, and the two sides of a cut then have the same vertices, so the topology sees one
  // shared arc and the merge removes it (simplification drops the extra vertices again).
  const dense: Ring = [out[0]!];
  for (let i = 1; i < out.length; i++) {
    const [x0, y0] = out[i - 1]!, [x1, y1] = out[i]!;
    const steps = Math.round(Math.abs(x0 === x1 ? y1 - y0 : y0 === y1 ? x1 - x0 : 0) / SNAP);
    for (let k = 1; k < steps; k++) {
      dense.push([+(x0 + ((x1 - x0) * k) / steps).toFixed(4), +(y0 + ((y1 - y0) * k) / steps).toFixed(4)]);
    }
    dense.push(out[i]!);
  }
  return dense;
}

export interface ZoneMapStats {
  pieces: number;
  zones: number;
  arcs: number;
  points: number;
  bytes: number;
}

/** The map: a TopoJSON topology with one object "zones" (a MultiPolygon per tzid, in
 *  properties.name; `point` a [lon, lat] inside the zone's largest piece, for small zones). */
export function compileZoneMap(source: GeoSource): { json: string; stats: ZoneMapStats } {
  const pieces: Piece[] = [];
  const points = new Map<string, { area: number; at: [number, number] }>();
  const add = (tzid: string, polygons: number[][][][]) => {
    const coordinates: Ring[][] = [];
    for (const polygon of polygons) {
      const rings = polygon.map(snapRing);
      if (rings[0] === null) continue;
      coordinates.push(rings.filter((r): r is Ring => r !== null));
    }
    // Every zone keeps a point inside its largest outer ring (before snapping).
    for (const polygon of polygons) {
      const ring = polygon[0]!;
      let area = 0, x = 0, y = 0;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const cross = ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!;
        area += cross;
        x += (ring[j]![0]! + ring[i]![0]!) * cross;
        y += (ring[j]![1]! + ring[i]![1]!) * cross;
      }
      const best = points.get(tzid);
      if (area !== 0 && (!best || Math.abs(area) > best.area)) points.set(tzid, { area: Math.abs(area), at: [+(x / (3 * area)).toFixed(3), +(y / (3 * area)).toFixed(3)] });
    }
    if (coordinates.length > 0) pieces.push({ type: "Feature", properties: { tzid }, geometry: { type: "MultiPolygon", coordinates } });
  };
  const rectangle = (r: Rect): number[][][][] => [[[[r.left, r.bottom], [r.right, r.bottom], [r.right, r.top], [r.left, r.top], [r.left, r.bottom]]]];
  const walk = (node: QuadNode, rect: Rect) => {
    QUADS.forEach((q, i) => {
      const child = node[q];
      const childRect = quadrant(rect, i);
      if (child === undefined || (!Array.isArray(child) && "pos" in child)) return;
      // A quad wholly inside zones: the first is the one /coordinates answers.
      if (Array.isArray(child)) add(source.timezones[child[0]!]!, rectangle(childRect));
      else walk(child, childRect);
    });
  };
  walk(source.root, ROOT);
  source.leaves((_path, features) => {
    for (const f of features) add(f.tzid, f.polygons);
  });

  // One MultiPolygon per zone: its pieces joined by cancelling the edges two pieces share
  // (a cut between quads is walked once each way), then chaining what is left into rings.
  // The rings keep the source's winding (outer anticlockwise, holes clockwise), which the
  // page's non-zero fill needs, not which ring holds which.
  const groups = new Map<string, Ring[]>();
  for (const p of pieces) {
    const list = groups.get(p.properties.tzid) ?? [];
    for (const polygon of p.geometry.coordinates) list.push(...polygon);
    groups.set(p.properties.tzid, list);
  }
  const merged = {
    type: "FeatureCollection",
    features: [...groups].sort(([x], [y]) => (x < y ? -1 : 1)).map(([tzid, rings]) => ({
      type: "Feature",
      properties: { name: tzid, point: points.get(tzid)?.at },
      geometry: { type: "MultiPolygon", coordinates: joinRings(rings).map((r) => [r]) },
    })),
  };
  // The merged zones -> their own topology, simplified and quantized.
  let map = topology({ zones: merged as any });
  map = presimplify(map as any) as any;
  map = simplify(map as any, quantile(map as any, KEEP)) as any;
  // Islands and enclaves under MIN_RING (steradians) go; a zone left with none is drawn at its point.
  map = filter(map as any, filterWeight(map as any, MIN_RING)) as any;
  // Once more from the simplified shapes: drops the arcs the filter left unused, and
  // quantizes (shared borders are identical lines, so they stay shared).
  const simplified = feature(map as any, map.objects.zones as any) as any;
  map = topology({ zones: simplified }, QUANTIZE);
  // Names go on the geometry itself (TopoJSON's `id`), the point in properties.
  for (const g of (map.objects.zones as any).geometries) {
    g.id = g.properties.name;
    g.properties = { point: g.properties.point };
  }
  const json = JSON.stringify(map);
  return {
    json,
    stats: {
      pieces: pieces.length,
      zones: groups.size,
      arcs: map.arcs.length,
      points: map.arcs.reduce((n, a) => n + a.length, 0),
      bytes: json.length,
    },
  };
}

/** The outline of a set of rings that meet edge to edge: shared edges cancel, the rest chain. */
function joinRings(rings: Ring[]): Ring[] {
  const key = (p: [number, number]) => `${p[0]},${p[1]}`;
  const edges = new Map<string, number>();
  const at = new Map<string, [number, number]>();
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const a = key(ring[i - 1]!), b = key(ring[i]!);
      if (a === b) continue;
      at.set(a, ring[i - 1]!);
      at.set(b, ring[i]!);
      const back = `${b}>${a}`;
      if ((edges.get(back) ?? 0) > 0) edges.set(back, edges.get(back)! - 1);
      else edges.set(`${a}>${b}`, (edges.get(`${a}>${b}`) ?? 0) + 1);
    }
  }
  const from = new Map<string, string[]>();
  for (const [e, n] of edges) {
    const [a, b] = e.split(">") as [string, string];
    for (let i = 0; i < n; i++) (from.get(a) ?? from.set(a, []).get(a)!).push(b);
  }
  const out: Ring[] = [];
  for (const [start, nexts] of from) {
    while (nexts.length > 0) {
      const ring: Ring = [at.get(start)!];
      let here = start;
      for (;;) {
        const next = from.get(here)?.pop();
        if (next === undefined) break;
        ring.push(at.get(next)!);
        here = next;
        if (here === start) break;
      }
      if (ring.length >= 4 && here === start) out.push(ring);
    }
  }
  return out;
}
