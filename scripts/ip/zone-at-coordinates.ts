// An IP network's zone from its coordinates, through our own coordinates table (geo.bin, the
// boundary polygons /coordinates answers from), so an address and its coordinates agree.
// Where the polygons hold no land (a nautical Etc/GMT zone), the source has put a coastal
// network's point offshore: people there keep the nearby land's clock, so the nearest land
// zone within half a degree is taken (rings of 8 probes, nearest ring first).

import type { GeoTable } from "../../server/geo/geo-locator.ts";

export type ZoneAtCoordinates = (latitude: unknown, longitude: unknown) => string | null;

const RINGS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5];
const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]] as const;
const isNautical = (zone: string) => zone.startsWith("Etc/");

export function zoneAtCoordinates(geo: GeoTable): ZoneAtCoordinates {
  return (latitude, longitude) => {
    if (typeof latitude !== "number" || typeof longitude !== "number" || !(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return null;
    const zone = geo.zonesAt(latitude, longitude)[0];
    if (zone === undefined || !isNautical(zone)) return zone ?? null;
    for (const r of RINGS) {
      for (const [dLat, dLon] of DIRECTIONS) {
        const lat = Math.max(-90, Math.min(90, latitude + r * dLat));
        const lon = Math.max(-180, Math.min(180, longitude + r * dLon));
        const land = geo.zonesAt(lat, lon)[0];
        if (land !== undefined && !isNautical(land)) return land;
      }
    }
    return zone;
  };
}
