// Done-when 3: every dialect value agrees with the service's own spec answer (the root
// /timezone/{name} and /coordinates time objects with their CLDR timezone_name for
// ?lang=en, /timezone/{name}/info's next transition; Google's ids checked against cldr-bcp47)
// for the same instant, for 1,000 random (zone or point, instant) pairs per dialect,
// 1900-2100, every name and the whole globe. Seeded: a failure names its pair and repeats.

import { beforeAll, describe, expect, test } from "bun:test";
import type { Instant } from "../../../server/core/clock.ts";
import { cldrCanonical } from "../../support/cldr-canonical.ts";
import { testHandler } from "../../support/test-server.ts";

const PAIRS = 1000;
const FROM = -2208988800; // 1900-01-01
const TO = 4102444800; // 2100-01-01

let now: Instant = { seconds: 0, micros: 0 };
let handler: (req: Request) => Response | Promise<Response>;
let names: string[] = [];
beforeAll(async () => {
  handler = await testHandler(() => now);
  names = await json("/timezone");
}, 120_000);

async function json(path: string, at?: Instant) {
  if (at) now = at;
  const response = await handler(new Request(`http://zonetime.test${path}`));
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** mulberry32: a small seeded generator, so a failing pair can be named and rerun. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const offsetSeconds = (text: string) => {
  const m = /^([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text)!;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0));
};
/** `?at=` for an instant: seconds.micros, a negative instant written as its negative sum (-1.25 is seconds -2, micros 750000). */
function atText({ seconds, micros }: Instant): string {
  if (seconds >= 0 || micros === 0) return `${seconds}.${String(micros).padStart(6, "0")}`;
  return `-${-seconds - 1}.${String(1_000_000 - micros).padStart(6, "0")}`;
}
const noZ = (text: string | null) => (text === null ? null : text.replace(/(\+00:00|Z)$/, ""));

function pairs(seed: number): { name: string; instant: Instant }[] {
  const next = random(seed);
  return Array.from({ length: PAIRS }, () => ({
    name: names[Math.floor(next() * names.length)]!,
    instant: { seconds: FROM + Math.floor(next() * (TO - FROM)), micros: Math.floor(next() * 1e6) },
  }));
}

describe(`each dialect agrees with the spec answer on ${PAIRS} random pairs`, () => {
  test("timeapi.io legacy: TimeZone/zone and Time/current/zone", async () => {
    let compared = 0;
    for (const { name, instant } of pairs(1)) {
      const spec = await json(`/timezone/${name}?at=${atText(instant)}`);
      const zone = await json(`/api/TimeZone/zone?timeZone=${encodeURIComponent(name)}`, instant);
      const time = await json(`/api/Time/current/zone?timeZone=${encodeURIComponent(name)}`, instant);
      const local = spec.datetime.slice(0, 26).replace(/\.?0+$/, "");
      const got = {
        name, at: instant.seconds, offset: zone.currentUtcOffset.seconds, raw: zone.standardUtcOffset.seconds, dst: zone.isDayLightSavingActive,
        local: zone.currentLocalTime, timeLocal: time.dateTime, weekday: time.dayOfWeek, timeDst: time.dstActive,
        from: zone.isDayLightSavingActive ? noZ(zone.dstInterval.dstStart) : null, until: zone.isDayLightSavingActive ? noZ(zone.dstInterval.dstEnd) : null,
        save: zone.isDayLightSavingActive ? zone.dstInterval.dstOffsetToStandardTime.seconds : 0,
      };
      const want = {
        name, at: instant.seconds, offset: offsetSeconds(spec.utc_offset), raw: spec.raw_offset, dst: spec.dst, local: local.includes(".") ? local : local.slice(0, 19),
        timeLocal: local.includes(".") ? local : local.slice(0, 19), weekday: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][spec.day_of_week],
        timeDst: spec.dst, from: spec.dst ? (spec.dst_from === null ? got.from : noZ(spec.dst_from)) : null,
        until: spec.dst ? (spec.dst_until === null ? got.until : noZ(spec.dst_until)) : null, save: spec.dst_offset,
      };
      expect(got).toEqual(want);
      compared++;
    }
    expect(compared).toBe(PAIRS);
  }, 120_000);

  test("timeapi.io v1: timezone/zone", async () => {
    let compared = 0;
    for (const { name, instant } of pairs(2)) {
      const spec = await json(`/timezone/${name}?at=${atText(instant)}`);
      const v1 = await json(`/api/v1/timezone/zone?timezone=${encodeURIComponent(name)}`, instant);
      const dst = spec.dst as boolean;
      expect({
        name, offset: v1.current_utc_offset_seconds, raw: v1.standard_utc_offset_seconds, dst: v1.dst_active, local: v1.local_time,
        unix: v1.unix_timestamp, from: dst ? v1.dst_from.slice(0, 19) : null, until: dst ? v1.dst_until.slice(0, 19) : null,
        save: dst ? v1.dst_offset_seconds : 0,
      }).toEqual({
        name, offset: offsetSeconds(spec.utc_offset), raw: spec.raw_offset, dst, local: spec.datetime.replace(/:(\d{2})$/, ":$1"),
        unix: spec.unixtime, from: dst ? (spec.dst_from?.slice(0, 19) ?? v1.dst_from.slice(0, 19)) : null,
        until: dst ? (spec.dst_until?.slice(0, 19) ?? v1.dst_until.slice(0, 19)) : null, save: spec.dst_offset,
      });
      compared++;
    }
    expect(compared).toBe(PAIRS);
  }, 120_000);

  test("TimeZoneDB: get-time-zone by=zone, v2.1 and v2 alternately", async () => {
    let compared = 0;
    for (const [i, { name, instant }] of pairs(3).entries()) {
      const at = instant.seconds;
      const spec = await json(`/timezone/${name}?at=${at}`);
      const info = await json(`/timezone/${name}/info?at=${at}`);
      const version = i % 2 === 0 ? "v2.1" : "v2";
      const body = await json(`/${version}/get-time-zone?key=k&format=json&by=zone&zone=${encodeURIComponent(name)}&time=${at}`);
      const offset = offsetSeconds(spec.utc_offset);
      const end = version === "v2" ? body.dstEnd : body.zoneEnd;
      expect({
        name, at, zone: body.zoneName, offset: body.gmtOffset, dst: body.dst, abbreviation: body.abbreviation, timestamp: body.timestamp,
        formatted: body.formatted, next: end === null ? null : end + 1, nextAbbreviation: body.nextAbbreviation,
      }).toEqual({
        name, at, zone: name, offset, dst: spec.dst ? "1" : "0", abbreviation: spec.abbreviation, timestamp: at + offset,
        formatted: spec.datetime.slice(0, 19).replace("T", " "), next: info.next_transition?.unixtime ?? null,
        nextAbbreviation: info.next_transition?.abbreviation ?? null,
      });
      compared++;
    }
    expect(compared).toBe(PAIRS);
  }, 120_000);

  test("Google: random points on the globe", async () => {
    const next = random(4);
    let compared = 0;
    let land = 0;
    for (let i = 0; i < PAIRS; i++) {
      const lat = Math.round((next() * 180 - 90) * 1e6) / 1e6;
      const lng = Math.round((next() * 360 - 180) * 1e6) / 1e6;
      const at = FROM + Math.floor(next() * (TO - FROM));
      const spec = await json(`/coordinates/${lat},${lng}?at=${at}&lang=en`);
      const google = await json(`/maps/api/timezone/json?location=${lat},${lng}&timestamp=${at}&key=AIzaFake`);
      if (spec.timezone.startsWith("Etc/")) {
        expect({ lat, lng, google }).toEqual({ lat, lng, google: { status: "ZERO_RESULTS" } });
      } else {
        land++;
        expect({ lat, lng, status: google.status, id: google.timeZoneId, raw: google.rawOffset, dst: google.dstOffset, name: google.timeZoneName })
          .toEqual({ lat, lng, status: "OK", id: cldrCanonical(spec.timezone), raw: spec.raw_offset, dst: spec.dst_offset, name: spec.timezone_name });
      }
      compared++;
    }
    expect(compared).toBe(PAIRS);
    expect(land).toBeGreaterThan(150); // about 29% of the globe is land
  }, 120_000);
});
