// Done-when 2: each dialect field by field against the verbatim samples of
// ../shared/research/dialects.md, for the same instant and zone. Identical where the sample
// is genuine; each allowed difference is named: our clock has microseconds (timeapi.io's
// .NET clock 100 ns ticks, so 7 fraction digits there, 6 here).

import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Instant } from "../../../server/core/clock.ts";
import { testHandler } from "../../support/test-server.ts";

let now: Instant = { seconds: 0, micros: 0 };
let handler: (req: Request) => Response | Promise<Response>;
beforeAll(async () => {
  handler = await testHandler(() => now);
}, 120_000);

async function get(path: string, at?: Instant): Promise<{ status: number; type: string | null; body: string }> {
  if (at) now = at;
  const response = await handler(new Request(`http://zonetime.test${path}`));
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

describe("timeapi.io legacy", () => {
  test("Time/current/zone, UTC at 2025-04-12T00:55:31.3906051 [idx:39676079010]: identical but the 7th fraction digit", async () => {
    const sample = `{"year":2025,"month":4,"day":12,"hour":0,"minute":55,"seconds":31,"milliSeconds":390,"dateTime":"2025-04-12T00:55:31.3906051","date":"04/12/2025","time":"00:55","timeZone":"UTC","dayOfWeek":"Saturday","dstActive":false}`;
    const r = await get("/api/Time/current/zone?timeZone=UTC", { seconds: 1744419331, micros: 390605 });
    expect(r.status).toBe(200);
    expect(r.body).toBe(sample.replace("31.3906051", "31.390605"));
  });

  test("TimeZone/zone, Europe/Madrid at 2025-05-11T10:28:02.4054762 local [idx:58250451883]: identical but the 7th fraction digit", async () => {
    const sample = `{"timeZone":"Europe/Madrid","currentLocalTime":"2025-05-11T10:28:02.4054762",
 "currentUtcOffset":{"seconds":7200,"milliseconds":7200000,"ticks":72000000000,"nanoseconds":7200000000000},
 "standardUtcOffset":{"seconds":3600,"milliseconds":3600000,"ticks":36000000000,"nanoseconds":3600000000000},
 "hasDayLightSaving":true,"isDayLightSavingActive":true,
 "dstInterval":{"dstName":"CEST",
   "dstOffsetToUtc":{"seconds":7200,"milliseconds":7200000,"ticks":72000000000,"nanoseconds":7200000000000},
   "dstOffsetToStandardTime":{"seconds":3600,"milliseconds":3600000,"ticks":36000000000,"nanoseconds":3600000000000},
   "dstStart":"2025-03-30T01:00:00Z","dstEnd":"2025-10-26T01:00:00Z",
   "dstDuration":{"days":210,"nanosecondOfDay":0,"hours":0,"minutes":0,"seconds":0,"milliseconds":0,
     "subsecondTicks":0,"subsecondNanoseconds":0,"bclCompatibleTicks":181440000000000,"totalDays":210,
     "totalHours":5040,"totalMinutes":302400,"totalSeconds":18144000,"totalMilliseconds":18144000000,
     "totalTicks":181440000000000,"totalNanoseconds":18144000000000000}}}`.replace(/\n\s*/g, "");
    const r = await get("/api/TimeZone/zone?timeZone=Europe/Madrid", { seconds: 1746952082, micros: 405476 });
    expect(r.body).toBe(sample.replace("02.4054762", "02.405476"));
  });

  test("TimeZone/zone, America/New_York: a DST period of 237.95833333333334 days, nanosecondOfDay 82800000000000 [idx:2555340627]", async () => {
    const r = await get("/api/timezone/zone?timezone=America/New_York", { seconds: 1752000000, micros: 0 });
    const body = JSON.parse(r.body);
    expect(r.body).toContain(`"totalDays":237.95833333333334`);
    expect(body.dstInterval.dstDuration.nanosecondOfDay).toBe(82800000000000);
    expect(body.dstInterval.dstDuration.days).toBe(237);
    expect(body.dstInterval.dstDuration.hours).toBe(23);
  });

  test("TimeZone/zone, Europe/Moscow 2026-04-26 [idx:58948060068]: no DST, dstInterval null", async () => {
    const r = await get("/api/TimeZone/zone?timeZone=Europe/Moscow", { seconds: 1777200000, micros: 120000 });
    expect(r.body.endsWith(`"hasDayLightSaving":false,"isDayLightSavingActive":false,"dstInterval":null}`)).toBe(true);
    expect(r.body).toContain(`"currentLocalTime":"2026-04-26T13:40:00.12"`);
  });

  test("SenseCAP's UTC capture of 2023-02-02T09:40:26.1233729: identical but the 7th digit", async () => {
    const sample = `{"timeZone":"UTC","currentLocalTime":"2023-02-02T09:40:26.1233729","currentUtcOffset":{"seconds":0,"milliseconds":0,"ticks":0,"nanoseconds":0},"standardUtcOffset":{"seconds":0,"milliseconds":0,"ticks":0,"nanoseconds":0},"hasDayLightSaving":false,"isDayLightSavingActive":false,"dstInterval":null}`;
    const r = await get("/api/TimeZone/zone?timeZone=UTC", { seconds: 1675330826, micros: 123372 });
    expect(r.body).toBe(sample.replace("26.1233729", "26.123372"));
  });

  test("AvailableTimeZones: a flat array from Africa/Abidjan to Zulu, aliases included", async () => {
    const body = JSON.parse((await get("/api/TimeZone/AvailableTimeZones")).body) as string[];
    expect(body[0]).toBe("Africa/Abidjan");
    expect(body.length).toBe(597);
    expect(body.slice(-4)).toEqual(["UTC", "W-SU", "WET", "Zulu"]); // case ignored: US/Samoa before UTC
    expect(body.indexOf("Universal")).toBeLessThan(body.indexOf("US/Eastern"));
    expect(body).toContain("Asia/Calcutta");
  });

  test("ConvertTimeZone: fromTimezone (lower-case z) beside toTimeZone, as [idx:52372810117]", async () => {
    const response = await handler(new Request("http://zonetime.test/api/Conversion/ConvertTimeZone", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ fromTimeZone: "America/New_York", dateTime: "2026-04-18 12:00:00", toTimeZone: "Europe/London", dstAmbiguity: "" }),
    }));
    const body = JSON.parse(await response.text());
    expect(body.fromTimezone).toBe("America/New_York");
    expect(body.fromDateTime).toBe("2026-04-18T12:00:00");
    expect(body.toTimeZone).toBe("Europe/London");
    expect(body.conversionResult.dateTime).toBe("2026-04-18T17:00:00");
    expect(body.conversionResult.dstActive).toBe(true);
  });

  test("DayOfTheWeek and DayOfTheYear", async () => {
    expect((await get("/api/Conversion/DayOfTheYear/2025-06-11")).body).toBe(`{"day":162}`);
    expect((await get("/api/conversion/dayoftheweek/2026-11-22")).body).toBe(`{"dayOfWeek":"Sunday"}`);
  });
});

describe("timeapi.io v1", () => {
  test("time/current/zone, UTC at 2026-09-19T13:31:06.598390 [idx:69053444487]: byte-identical", async () => {
    const sample = `{"date_time":"2026-09-19T13:31:06.598390+00:00","date":"2026-09-19","time":"13:31:06.598390","day_of_week":"Saturday","dst_active":false,"timezone":"UTC","utc_offset_seconds":0}`;
    expect((await get("/api/v1/time/current/zone?timezone=UTC", { seconds: 1789824666, micros: 598390 })).body).toBe(sample);
    expect((await get("/api/v1/time/current/zone?timeZone=UTC")).body).toBe(sample);
  });

  test("timezone/zone, America/Chicago at 2026-07-29T21:24:52.929432Z [idx:70966518220]: byte-identical", async () => {
    const sample = `{"timezone":"America/Chicago","current_utc_offset_seconds":-18000,"standard_utc_offset_seconds":-21600,"dst_utc_offset_seconds":-18000,"has_dst":true,"dst_offset_seconds":3600,"dst_active":true,"dst_from":"2026-03-08T08:00:00.000000+00:00","dst_until":"2026-11-01T07:00:00.000000+00:00","local_time":"2026-07-29T16:24:52.929432-05:00","day_of_week":"Wednesday","utc_time":"2026-07-29T21:24:52.929432+00:00","unix_timestamp":1785360292}`;
    expect((await get("/api/v1/timezone/zone?timeZone=America/Chicago", { seconds: 1785360292, micros: 929432 })).body).toBe(sample);
  });

  test("time/current/unix: exactly {\"unix_timestamp\":N} (a Rust client strips that prefix) [idx:59256812961]", async () => {
    expect((await get("/api/v1/time/current/unix", { seconds: 1785360292, micros: 1 })).body).toBe(`{"unix_timestamp":1785360292}`);
  });
});

describe("TimeZoneDB", () => {
  test("v2.1 get-time-zone by=zone, America/Denver 2020 [idx:11623432274]: byte-identical (region and city empty, as 2023 captures show them)", async () => {
    const sample = `{"status":"OK","message":"","countryCode":"US","countryName":"United States","zoneName":"America\\/Denver","abbreviation":"MST","gmtOffset":-25200,"dst":"0","zoneStart":1604217600,"zoneEnd":1615712399,"nextAbbreviation":"MDT","timestamp":1607117106,"formatted":"2020-12-04 21:25:06"}`;
    const r = await get("/v2.1/get-time-zone?key=anything&format=json&by=zone&zone=America/Denver&time=1607142306");
    expect(r.body).toBe(sample.replace(`"countryName":"United States",`, `"countryName":"United States","regionName":"","cityName":"",`));
  });

  test("v2.1 Asia/Taipei 2023 [idx:3894906701]: zoneEnd and nextAbbreviation null", async () => {
    const r = await get("/v2.1/get-time-zone?key=k&format=json&by=zone&zone=Asia/Taipei&time=1679764439");
    expect(r.body).toContain(`"regionName":"","cityName":"","zoneName":"Asia\\/Taipei","abbreviation":"CST","gmtOffset":28800,"dst":"0","zoneStart":307551600,"zoneEnd":null,"nextAbbreviation":null,"timestamp":1679793239,"formatted":"2023-03-26 01:13:59"`);
  });

  test("v2 Europe/Andorra 2021 [idx:42142695034]: dstStart/dstEnd", async () => {
    const r = await get("/v2/get-time-zone?key=k&format=json&by=zone&zone=Europe/Andorra&time=1625000000");
    expect(r.body).toContain(`"dst":"1","dstStart":1616893200,"dstEnd":1635641999,"nextAbbreviation":"CET"`);
    expect(r.body).not.toContain("regionName");
  });

  test("list-time-zone recorded 2021-01-10: Andorra first, gmtOffset and timestamp, no dst by default", async () => {
    const r = await get("/v2.1/list-time-zone?key=k&format=json&time=1610290078");
    const body = JSON.parse(r.body);
    expect(r.body.startsWith(`{"status":"OK","message":"","zones":[{"countryCode":"AD","countryName":"Andorra","zoneName":"Europe\\/Andorra","gmtOffset":3600,"timestamp":1610293678},`)).toBe(true);
    expect(body.zones.every((z: object) => !("dst" in z))).toBe(true);
    const kolkata = JSON.parse((await get("/v2.1/list-time-zone?key=k&format=json&by=zone&zone=Asia%2FKolkata")).body);
    expect(kolkata.zones.map((z: { zoneName: string }) => z.zoneName)).toEqual(["Asia/Kolkata"]);
  });

  test("abbreviations as zones (names' /timezone?q= index), by=city (places' index)", async () => {
    const cdt = JSON.parse((await get("/v2.1/get-time-zone?key=k&format=json&by=zone&zone=CDT&time=1752000000")).body);
    expect([cdt.zoneName, cdt.abbreviation]).toEqual(["America/Chicago", "CDT"]);
    const pst = JSON.parse((await get("/v2.1/convert-time-zone?key=k&format=json&from=PST&to=AEST&time=1752000000")).body);
    expect([pst.fromZoneName, pst.toZoneName]).toEqual(["America/Los_Angeles", "Australia/Sydney"]);
    const portland = JSON.parse((await get("/v2.1/get-time-zone?key=k&format=json&by=city&country=US&city=Portland&region=Maine&time=1752000000")).body);
    expect(portland.zones[0]).toMatchObject({ cityName: "Portland", regionName: "Maine", zoneName: "America/New_York", gmtOffset: -14400 });
    const paris = JSON.parse((await get("/v2.1/get-time-zone?key=k&format=json&by=city&country=FR&city=Paris&time=1752000000")).body);
    expect(paris.zones[0]).toMatchObject({ cityName: "Paris", zoneName: "Europe/Paris", countryCode: "FR" });
    expect(paris.currentPage).toBe(1);
  });

  test("list-time-zone lists zone.tab's 418 rows (country, name)", async () => {
    const body = JSON.parse((await get("/v2.1/list-time-zone?key=k&format=json")).body);
    const ours = new Set(body.zones.map((z: { countryCode: string; zoneName: string }) => `${z.countryCode} ${z.zoneName}`));
    const tab = new Set(readFileSync(join(import.meta.dir, "..", "..", "..", "data", "tzdb", "zone.tab"), "utf8").split("\n")
      .filter((l) => l !== "" && !l.startsWith("#")).map((l) => { const [code, , name] = l.split("\t"); return `${code} ${name}`; }));
    expect(ours.size).toBe(tab.size);
    // zone1970.tab lists Simferopol under RU first and UA second; zone.tab under UA.
    expect([...tab].filter((row) => !ours.has(row))).toEqual(["UA Europe/Simferopol"]);
  });

  test("convert-time-zone: LA to Sydney, offset 61200 (api-evangelist's example)", async () => {
    const body = JSON.parse((await get("/v2.1/convert-time-zone?key=k&format=json&from=America/Los_Angeles&to=Australia/Sydney&time=1464793200")).body);
    expect(body.offset).toBe(61200);
    expect(body.toTimestamp - body.fromTimestamp).toBe(61200);
    expect([body.fromAbbreviation, body.toAbbreviation]).toEqual(["PDT", "AEST"]);
  });

  test("XML is the default: a <result> with status and message", async () => {
    const r = await get("/v2.1/get-time-zone?key=k&by=zone&zone=America/New_York&time=1720839808");
    expect(r.type).toStartWith("text/xml");
    expect(r.body).toStartWith(`<?xml version="1.0" encoding="UTF-8"?>\n<result><status>OK</status><message/><countryCode>US</countryCode>`);
    const list = await get("/v2.1/list-time-zone?key=k&zone=America/New_York&time=1720839808");
    // [idx:21718249158]'s zone element (without dst, the list's default).
    expect(list.body).toContain(`<zone><countryCode>US</countryCode><countryName>United States</countryName><zoneName>America/New_York</zoneName><gmtOffset>-14400</gmtOffset><timestamp>1720825408</timestamp></zone>`);
  });
});

describe("Google Time Zone", () => {
  test("JSON at 1331161200 for 39.6034810,-119.6822510 (Go SDK fixture, docs): Google's bytes", async () => {
    const r = await get("/maps/api/timezone/json?location=39.6034810,-119.6822510&timestamp=1331161200&key=AIzaAnything");
    const expected = `{\n   "dstOffset" : 0,\n   "rawOffset" : -28800,\n   "status" : "OK",\n   "timeZoneId" : "America/Los_Angeles",\n   "timeZoneName" : "Pacific Standard Time"\n}\n`;
    expect(r.body).toBe(expected);
    expect(r.type).toBe("application/json; charset=UTF-8");
  });

  test("XML: Google's sample, byte for byte (a trailing newline added)", async () => {
    const r = await get("/maps/api/timezone/xml?location=39.6034810%2C-119.6822510&timestamp=1331161200");
    expect(r.body).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<TimeZoneResponse>
 <status>OK</status>
 <raw_offset>-28800.0000000</raw_offset>
 <dst_offset>0.0000000</dst_offset>
 <time_zone_id>America/Los_Angeles</time_zone_id>
 <time_zone_name>Pacific Standard Time</time_zone_name>
</TimeZoneResponse>
`);
  });

  test("names and ids as Google's captures give them: CLDR long names at the instant, localized, CLDR canonical ids", async () => {
    const name = async (query: string, headers: Record<string, string> = {}) => {
      now = { seconds: 0, micros: 0 };
      const response = await handler(new Request(`http://zonetime.test/maps/api/timezone/json?${query}`, { headers }));
      const body = JSON.parse(await response.text());
      return [body.timeZoneId, body.timeZoneName];
    };
    // The docs' dstoffset example: daylight in force.
    expect(await name("location=39.6034810,-119.6822510&timestamp=1331766000")).toEqual(["America/Los_Angeles", "Pacific Daylight Time"]);
    // Java SDK's test: Sydney, rawOffset 36000, in its standard time.
    expect(await name("location=-33.8688,151.2093&timestamp=1751234567")).toEqual(["Australia/Sydney", "Australian Eastern Standard Time"]);
    // [idx:27969079006]: Madrid in winter; gsteel's live test: London in January; radioglobe: N'Djamena.
    expect(await name("location=40.4168,-3.7038&timestamp=1737000000")).toEqual(["Europe/Madrid", "Central European Standard Time"]);
    expect(await name("location=51.5074,-0.1278&timestamp=1737000000")).toEqual(["Europe/London", "Greenwich Mean Time"]);
    // radioglobe's comment has "West Africa Standard Time": CLDR 48 (our names, ICU 78.2's)
    // dropped the standard/summer split of West Africa since nobody there has summer time.
    expect(await name("location=12.1348,15.0557&timestamp=1737000000")).toEqual(["Africa/Ndjamena", "West Africa Time"]);
    // gsteel's MockServer: Spanish, daylight.
    expect(await name("location=39.6034810,-119.6822510&timestamp=1751234567&language=es")).toEqual(["America/Los_Angeles", "hora de verano del Pacífico"]);
    // Accept-Language when there is no language=; an unknown language falls back to English.
    expect((await name("location=48.8566,2.3522&timestamp=1737000000", { "Accept-Language": "fr-CH, fr;q=0.9" }))[1]).toBe("heure normale d’Europe centrale");
    expect((await name("location=48.8566,2.3522&timestamp=1737000000&language=xx"))[1]).toBe("Central European Standard Time");
    // CLDR canonical ids, as Google answers (a Swift app stores Asia/Calcutta).
    expect((await name("location=19.076,72.8777&timestamp=1737000000"))[0]).toBe("Asia/Calcutta");
    expect((await name("location=27.7172,85.324&timestamp=1737000000"))[0]).toBe("Asia/Katmandu");
    expect((await name("location=50.45,30.5236&timestamp=1737000000"))[0]).toBe("Europe/Kiev");
  });

  test("Sydney (the Java SDK's test): rawOffset 36000; Dublin follows tzdb (negative DST in winter)", async () => {
    const sydney = JSON.parse((await get("/maps/api/timezone/json?location=-33.8688,151.2093&timestamp=0")).body);
    expect([sydney.rawOffset, sydney.timeZoneId]).toEqual([36000, "Australia/Sydney"]);
    const negative = JSON.parse((await get("/maps/api/timezone/json?location=51.5,-0.12&timestamp=-62135596800")).body);
    expect([negative.status, negative.rawOffset, negative.dstOffset]).toEqual(["OK", -75, 0]); // London's LMT
    const sea = JSON.parse((await get("/maps/api/timezone/json?location=0,-30&timestamp=0")).body);
    expect(sea).toEqual({ status: "ZERO_RESULTS" });
    const fractional = JSON.parse((await get("/maps/api/timezone/json?location=51.5,-0.12&timestamp=1751234567.891")).body);
    expect([fractional.status, fractional.timeZoneId, fractional.dstOffset, fractional.rawOffset]).toEqual(["OK", "Europe/London", 3600, 0]);
    const dublinWinter = JSON.parse((await get("/maps/api/timezone/json?location=53.35,-6.26&timestamp=1737000000")).body);
    expect([dublinWinter.timeZoneId, dublinWinter.rawOffset + dublinWinter.dstOffset]).toEqual(["Europe/Dublin", 0]);
  });
});
