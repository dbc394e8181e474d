// Where the coordinates table comes from: the timezone-boundary-builder polygons as the npm
// package geo-tz ships them, in its comprehensive product `geo-tz/all` (zone names that hold
// for history too, as ?at= needs). geo-tz stores a quadtree (data/timezones.geojson.index.json):
// a quad is absent (sea), a list of zones (wholly inside them), or the position of its
// polygons clipped to the quad in data/timezones.geojson.geo.dat (geobuf). We read both
// through geo-tz itself: its preloading cache hands us every leaf's decoded polygons, one
// leaf at a time (holding them all would take over a gigabyte).

import { dirname, join } from "node:path";
import { find, setCache } from "geo-tz/all";
import { BOUNDARY_RELEASE, GEO_TZ_PACKAGE, GEO_TZ_VERSION } from "./geo-release.ts";


/** A quadtree node as index.json has it: children a (NE), b (NW), c (SW), d (SE). */
export type QuadChild = undefined | number[] | { pos: number; len: number } | QuadNode;
export interface QuadNode {
  a?: QuadChild;
  b?: QuadChild;
  c?: QuadChild;
  d?: QuadChild;
}

export interface LeafFeature {
  tzid: string;
  /** Polygons, each a list of closed rings of [lon, lat] pairs. */
  polygons: number[][][][];
}

export interface OceanBand {
  tzid: string;
  left: number;
  right: number;
}

export interface GeoSource {
  version: string;
  boundaryRelease: string;
  timezones: string[];
  root: QuadNode;
  /** Calls `visit` with the decoded polygons of every leaf that has a position, by its quad
   *  path ("abdc..."); each leaf's polygons may be dropped once `visit` returns. */
  leaves(visit: (path: string, features: LeafFeature[]) => void): void;
  /** The nautical zones east to west, with the bands geo-tz's oceanUtils gives them. */
  ocean: OceanBand[];
}

interface DecodedCollection {
  features: { properties: { tzid: string }; geometry: { type: string; coordinates: unknown } }[];
}

export async function geoTzSource(): Promise<GeoSource> {
  const dist = dirname(Bun.resolveSync("geo-tz/all", import.meta.dir));
  const pkg = (await Bun.file(join(dist, "..", "package.json")).json()) as { version: string };
  if (pkg.version !== GEO_TZ_VERSION) {
    throw new Error(`${GEO_TZ_PACKAGE} ${pkg.version} is installed, but scripts/geo/geo-release.ts records the boundary release of ${GEO_TZ_VERSION}; update both there`);
  }
  const index = (await Bun.file(join(dist, "..", "data", "timezones.geojson.index.json")).json()) as { timezones: string[]; lookup: QuadNode };
  const leaves = (visit: (path: string, features: LeafFeature[]) => void) => {
    // geo-tz's preload walks its tree and hands each decoded leaf to the store's `set`.
    const store = {
      get: () => undefined,
      set: (path: string, collection: DecodedCollection) => visit(path, collection.features.map((f) => {
        const g = f.geometry;
        if (g.type !== "Polygon" && g.type !== "MultiPolygon") throw new Error(`${GEO_TZ_PACKAGE} quad ${path}: unexpected ${g.type}`);
        const polygons = g.type === "Polygon" ? [g.coordinates as number[][][]] : (g.coordinates as number[][][][]);
        return { tzid: f.properties.tzid, polygons };
      })),
    };
    setCache({ preload: true, store });
    setCache({});
  };
  return { version: pkg.version, boundaryRelease: BOUNDARY_RELEASE, timezones: index.timezones, root: index.lookup, leaves, ocean: oceanBands() };
}

/** geo-tz answers the North Pole with every nautical zone in its table's order; each band is
 *  15 degrees around the zone's offset, cut at the antimeridian (oceanUtils.ts). */
function oceanBands(): OceanBand[] {
  return find(90, 0).map((tzid) => {
    const m = /^Etc\/GMT(?:([+-])(\d+))?$/.exec(tzid);
    if (!m) throw new Error(`${GEO_TZ_PACKAGE}: unexpected nautical zone ${tzid}`);
    // Etc/GMT-N is N hours east of Greenwich (POSIX sign).
    const hours = m[1] === undefined ? 0 : (m[1] === "-" ? 1 : -1) * Number(m[2]);
    return { tzid, left: Math.max(-180, 15 * hours - 7.5), right: Math.min(180, 15 * hours + 7.5) };
  });
}
