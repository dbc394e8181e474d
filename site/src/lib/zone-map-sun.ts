// The day/night line for an instant: where the sun stands overhead (the subsolar point) and
// the ring of the night side, in longitude and latitude, for the map to project and shade.
// A low-precision solar position (declination from the day of the year, longitude from UTC
// noon, no equation of time): within about 1 degree and 4 minutes of the true line, far
// below what a world map shows.

const RAD = Math.PI / 180;

export function subsolarPoint(ms: number): { lon: number; lat: number } {
  const d = new Date(ms);
  const dayOfYear = (ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000;
  const lat = -23.44 * Math.cos((2 * Math.PI * (dayOfYear + 10)) / 365.25);
  const utcHours = (ms % 86_400_000) / 3_600_000;
  const lon = ((((12 - utcHours) * 15) + 540) % 360) - 180;
  return { lon, lat };
}

/** The night side as one ring: the terminator from west to east, closed over the dark pole. */
export function nightRing(ms: number, step = 2): [number, number][] {
  const sun = subsolarPoint(ms);
  // Near an equinox tan(declination) is ~0 and the line runs pole to pole; keep it finite.
  const tanDec = Math.tan((Math.abs(sun.lat) < 0.1 ? (sun.lat < 0 ? -0.1 : 0.1) : sun.lat) * RAD);
  const ring: [number, number][] = [];
  for (let lon = -180; lon <= 180; lon += step) {
    const lat = Math.atan(-Math.cos((lon - sun.lon) * RAD) / tanDec) / RAD;
    ring.push([lon, lat]);
  }
  // Then along the map's edge to the pole the sun cannot see (south in the northern summer),
  // across it, and back down the other edge: point by point, since the edge is curved once
  // projected and a straight chord would cut the corners off the night side.
  const darkPole = sun.lat > 0 ? -90 : 90;
  const east = ring[ring.length - 1]![1], west = ring[0]![1];
  for (let i = 1; i <= 45; i++) ring.push([180, east + ((darkPole - east) * i) / 45]);
  for (let i = 0; i <= 45; i++) ring.push([-180, darkPole + ((west - darkPole) * i) / 45]);
  return ring;
}
