// A point: decimal degrees, latitude -90..90 and longitude -180..180, the one parser of
// /coordinates/{lat},{lng} (latitude first, as maps and phones write them) and of the
// dialects' latitude/longitude parameters (their own error words; same numbers accepted).
// Plain decimal numbers only: no exponents, hex, spaces, NaN or Infinity (Number() would
// accept several of those, and "1e400" is not a place).

import { badRequest } from "../pipeline/http-errors.ts";

/** Far more than any real coordinate needs (17 significant digits each); bounds the work. */
const MAX_LENGTH = 64;
/** One number of degrees: far more digits than any real one has. */
const MAX_NUMBER_LENGTH = 32;
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

/** Degrees from text, or why not: "missing", "not a number" or "out of range". */
function readDegrees(text: string, limit: number): number | "missing" | "not a number" | "out of range" {
  if (text.length === 0) return "missing";
  if (text.length > MAX_NUMBER_LENGTH || !DECIMAL.test(text)) return "not a number";
  const value = Number(text);
  if (!(value >= -limit && value <= limit)) return "out of range";
  // -0 is 0: geo-tz's quadtree sends -0 north and east like 0, and so do we.
  return value === 0 ? 0 : value;
}

function degrees(text: string, what: string, limit: number): number {
  const value = readDegrees(text, limit);
  if (value === "missing") throw malformed(`${what} is missing; ${EXPECTED}`);
  if (value === "not a number") throw malformed(`${what} ${JSON.stringify(text.slice(0, MAX_NUMBER_LENGTH))} is not a decimal number; ${EXPECTED}`);
  if (value === "out of range") throw malformed(`${what} ${text} is outside -${limit}..${limit}`);
  return value;
}

/** Degrees for a dialect, which says "invalid" in its own words: null for anything the native route refuses. */
export function degreesOf(text: string | undefined, limit: number): number | null {
  const value = readDegrees(text ?? "", limit);
  return typeof value === "number" ? value : null;
}
