// The zones of the world as SVG shapes, drawn the one way every map of the site draws them
// (the live map, zone-map-draw.ts; a release's changed zones, release-map-draw.ts): the build's
// TopoJSON (/zone-map.json, one file every map page shares and caches) projected by d3-geo's
// Equal Earth into a 960x500 frame, the sea and graticule behind, one line per border
// between zones, and a dot where a zone is too small to see. The caller chooses each zone's
// fill and what happens on top.

import { geoEqualEarthRaw, geoGraticule10, geoPath, geoTransform } from "d3-geo";
import { feature, mesh } from "topojson-client";

export const WIDTH = 960, HEIGHT = 500;
const SVG = "http://www.w3.org/2000/svg";

export function el(name: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A zone as drawn: its shape (a path, or a dot where the shape is too small), where it sits, its size. */
export interface ZoneShape {
  zone: string;
  element: SVGElement;
  /** Frame units: the shape's centroid, or the dot's centre. */
  x: number;
  y: number;
  /** The drawn shape's area in frame units (0 when simplified away). */
  area: number;
  /** The zone's geometry, for bounds; null when the simplification dropped it. */
  geometry: any | null;
  dot: boolean;
}

export interface ZoneDrawing {
  /** Longitude and latitude (degrees) -> frame units. */
  project(lon: number, latitude: number): [number, number];
  /** Frame units -> longitude and latitude, or null off the globe. */
  unproject(px: number, py: number): [number, number] | null;
  path: ReturnType<typeof geoPath>;
  /** The sea and the graticule: append first. */
  sea: SVGElement[];
  /** The zones' shapes, then the borders between them, then the dots (append in that order, with layers of one's own between). */
  layer: SVGElement;
  borders: SVGElement;
  dots: SVGElement;
  /** Every zone, in keyboard order: west to east in bands of latitude, as a reader scans the map. */
  shapes: ZoneShape[];
}

/** The map's TopoJSON, as the build published it. */
export const fetchZoneMap = (): Promise<any> => fetch("/zone-map.json").then((r) => r.json());

/** Builds every zone's shape from the TopoJSON, filled with `fillOf(zone)`. */
export function drawZones(topology: any, fillOf: (zone: string) => string): ZoneDrawing {
  // The Equal Earth projection, applied point by point (planar): the build's shapes are already
  // cut at the antimeridian, and the SVG fill (non-zero) needs no sphere: a spherical projection reads a ring of the other
  // winding as "the rest of the sphere".
  const RAD = Math.PI / 180;
  const [xMax] = geoEqualEarthRaw(Math.PI, 0);
  const [, yMax] = geoEqualEarthRaw(0, Math.PI / 2);
  const k = Math.min((WIDTH - 8) / (2 * xMax), (HEIGHT - 8) / (2 * yMax));
  const project = (lon: number, latitude: number): [number, number] => {
    const [x, y] = geoEqualEarthRaw(lon * RAD, latitude * RAD);
    return [WIDTH / 2 + k * x, HEIGHT / 2 - k * y];
  };
  const unproject = (px: number, py: number): [number, number] | null => {
    const [l, p] = geoEqualEarthRaw.invert!((px - WIDTH / 2) / k, (HEIGHT / 2 - py) / k);
    const ll: [number, number] = [l / RAD, p / RAD];
    if (!Number.isFinite(ll[0]) || !Number.isFinite(ll[1]) || Math.abs(ll[0]) > 180 || Math.abs(ll[1]) > 90) return null;
    const back = project(ll[0], ll[1]);
    return Math.hypot(back[0] - px, back[1] - py) < 0.5 ? ll : null;
  };
  const path = geoPath(geoTransform({
    point(this: { stream: { point(x: number, y: number): void } }, lon: number, latitude: number) {
      const [x, y] = project(lon, latitude);
      this.stream.point(x, y);
    },
  }));
  const outline = { type: "Polygon", coordinates: [[
    ...Array.from({ length: 37 }, (_, i) => [-180, -90 + 5 * i]),
    ...Array.from({ length: 37 }, (_, i) => [180, 90 - 5 * i]),
    [-180, -90],
  ]] } as const;
  const sea = [
    el("path", { d: path(outline as any)!, fill: "#c9dceb", stroke: "none" }),
    el("path", { d: path(geoGraticule10())!, fill: "none", stroke: "#ffffff", "stroke-width": 0.4, "stroke-opacity": 0.7, "vector-effect": "non-scaling-stroke" }),
  ];
  const zones = feature(topology, topology.objects.zones) as unknown as { features: { id: string; geometry: any; properties: { point?: [number, number] } }[] };
  const layer = el("g", { "stroke-linejoin": "round" });
  const dots = el("g", {});
  const shapes: ZoneShape[] = [];
  for (const f of zones.features) {
    const fill = fillOf(f.id);
    const d = f.geometry ? path(f.geometry) : null;
    // A zone too small to see (or simplified away) is drawn as a dot at its point.
    const area = f.geometry ? Math.abs(path.area(f.geometry)) : 0;
    let shape: SVGElement | null = null;
    if (d) layer.append(shape = el("path", { d, fill, "data-zone": f.id }));
    if (area < 6 && f.properties.point) {
      const [x, y] = project(...f.properties.point);
      // The dot is the zone's keyboard stop where its shape is too small to see.
      dots.append(shape = el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 2.5, fill, stroke: "#333", "stroke-width": 0.5, "vector-effect": "non-scaling-stroke", "data-zone": f.id }));
      shapes.push({ zone: f.id, element: shape, x, y, area, geometry: f.geometry ?? null, dot: true });
    } else if (shape) {
      const [x, y] = path.centroid(f.geometry);
      shapes.push({ zone: f.id, element: shape, x, y, area, geometry: f.geometry, dot: false });
    }
  }
  shapes.sort((a, b) => Math.floor(a.y / 100) - Math.floor(b.y / 100) || a.x - b.x);
  // Borders between different zones: one line each (the arcs the two zones share).
  const borders = el("path", { d: path(mesh(topology, topology.objects.zones, (a: any, b: any) => a !== b && a.id !== b.id))!, fill: "none", stroke: "#333", "stroke-width": 0.35, "stroke-opacity": 0.6, "vector-effect": "non-scaling-stroke" });
  return { project, unproject, path, sea, layer, borders, dots, shapes };
}

/** Dots grow slower than the map when zoomed in, so they stay dots. */
export function resizeDots(dots: SVGElement, zoom: number): void {
  const r = (2.5 / Math.sqrt(zoom)).toFixed(2);
  for (const d of dots.children) d.setAttribute("r", r);
}
