// The {lat},{lng} segment of /coordinates: two plain decimal numbers of degrees, latitude
// first (as maps and phones write them), -90..90 and -180..180. Anything else is a 400 whose
// message says which part is wrong. No exponents, hex, spaces, NaN or Infinity: Number()
// would accept several of those, and "1e400" is not a place.

import { badRequest } from "../pipeline/http-errors.ts";

/** Far more than any real coordinate needs (17 significant digits each); bounds the work. */
const MAX_LENGTH = 64;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const malformed = (reason: string) => badRequest("malformed_coordinates", `malformed coordinates: ${reason}`);
const EXPECTED = "expected {latitude},{longitude} in decimal degrees, e.g. 51.5074,-0.1278";

export interface Coordinates {
  lat: number;
  lng: number;
}

/** Parses a decoded path segment; throws an HttpError (400) naming the wrong part. */
export function parseCoordinates(segment: string): Coordinates {
  if (segment.length > MAX_LENGTH) throw malformed(`longer than ${MAX_LENGTH} characters; ${EXPECTED}`);
  const comma = segment.indexOf(",");
  if (comma < 0 || segment.indexOf(",", comma + 1) >= 0) throw malformed(EXPECTED);
  return {
    lat: degrees(segment.slice(0, comma), "latitude", 90),
    lng: degrees(segment.slice(comma + 1), "longitude", 180),
  };
}

function degrees(text: string, what: string, limit: number): number {
  if (text.length === 0) throw malformed(`${what} is missing; ${EXPECTED}`);
  if (!DECIMAL.test(text)) throw malformed(`${what} ${JSON.stringify(text)} is not a decimal number; ${EXPECTED}`);
  const value = Number(text);
  if (!(value >= -limit && value <= limit)) throw malformed(`${what} ${text} is outside -${limit}..${limit}`);
  // -0 is 0: geo-tz's quadtree sends -0 north and east like 0, and so do we.
  return value === 0 ? 0 : value;
}
