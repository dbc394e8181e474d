// The {lat},{lng} segment: what parses, and the message for each way it can be wrong.

import { describe, expect, test } from "bun:test";
import { parseCoordinates } from "../../server/http/params/point.ts";
import { HttpError } from "../../server/http/pipeline/http-errors.ts";

const refusal = (segment: string) => {
  try {
    parseCoordinates(segment);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error(`accepted ${segment}`);
};

describe("coordinates", () => {
  test("decimal degrees, signs, integers, bounds inclusive", () => {
    expect(parseCoordinates("51.5074,-0.1278")).toEqual({ lat: 51.5074, lng: -0.1278 });
    expect(parseCoordinates("+90,-180")).toEqual({ lat: 90, lng: -180 });
    expect(parseCoordinates("-90,180")).toEqual({ lat: -90, lng: 180 });
    expect(parseCoordinates(".5,7.")).toEqual({ lat: 0.5, lng: 7 });
    expect(Object.is(parseCoordinates("-0,-0.0").lat, 0)).toBe(true);
  });

  test("each wrong part is named", () => {
    expect(refusal("91,0")).toBe("malformed coordinates: latitude 91 is outside -90..90");
    expect(refusal("0,181")).toBe("malformed coordinates: longitude 181 is outside -180..180");
    expect(refusal("-90.0000001,0")).toBe("malformed coordinates: latitude -90.0000001 is outside -90..90");
    expect(refusal("abc")).toStartWith("malformed coordinates: expected {latitude},{longitude} in decimal degrees");
    expect(refusal("1,2,3")).toStartWith("malformed coordinates: expected {latitude},{longitude}");
    expect(refusal(",")).toStartWith("malformed coordinates: latitude is missing");
    expect(refusal("10,")).toStartWith("malformed coordinates: longitude is missing");
    expect(refusal("1e400,0")).toStartWith('malformed coordinates: latitude "1e400" is not a decimal number');
    expect(refusal("NaN,NaN")).toStartWith('malformed coordinates: latitude "NaN" is not a decimal number');
    expect(refusal("0,Infinity")).toStartWith('malformed coordinates: longitude "Infinity" is not a decimal number');
    for (const bad of ["0x10,0", " 1,2", "1 ,2", "1,2 ", "--1,0", "1.2.3,0", "+,0", ".,0"]) expect(refusal(bad)).toContain("is not a decimal number");
    expect(refusal(`1.${"0".repeat(4096)},0`)).toStartWith("malformed coordinates: longer than 64 characters");
  });
});
