// The OpenAPI document against the real service: real responses of every endpoint
// validate against the documented schemas, every documented status is produced by some
// request, and the document served at /openapi.json is the one in the repo.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realtimeClock } from "../../server/core/clock.ts";
import { ClockCheck } from "../../server/ops/clock-check.ts";
import { DIALECT_ROUTES } from "../../server/http/dialects/dialect-routes.ts";
import { TIMEZONEDB_V1_ROW } from "../../server/http/dialects/timezonedb/v1-root.ts";
import { startServer, type Service } from "../../server/process/service.ts";
import { resolveRef, validate } from "../support/json-schema.ts";
import { ROOT, testConfig } from "../support/test-server.ts";

const openapi = JSON.parse(readFileSync(join(ROOT, "server", "http", "openapi.json"), "utf8"));
let service: Service;
let base: string;

beforeAll(async () => {
  service = await startServer(await testConfig({ TRUST_PROXY: "loopback", RATE_LIMIT: "3/60s" }), { sharePort: false });
  base = `http://127.0.0.1:${service.server.port}`;
}, 120_000);
afterAll(() => service?.server.stop(true));

/** One request per documented (path, status), with the headers that produce it. */
const REQUESTS: { path: string; status: string; url: string; headers?: Record<string, string>; draining?: boolean; diverged?: boolean; method?: "post"; body?: string }[] = [
  { path: "/timezone{format}", status: "200", url: "/timezone" },
  { path: "/timezone{format}", status: "304", url: "/timezone", headers: { "If-None-Match": "*" } },
  { path: "/timezone{format}", status: "429", url: "/timezone", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone{format}", status: "200", url: "/timezone?country=DE" },
  { path: "/timezone{format}", status: "200", url: "/timezone?q=pacific%20time" },
  { path: "/timezone{format}", status: "400", url: "/timezone?country=XX" },
  { path: "/timezone/{area}{format}", status: "200", url: "/timezone/Europe/London?lang=de" },
  { path: "/timezone/{area}{format}", status: "400", url: "/timezone/Europe/London?lang=x-" },
  { path: "/timezone/{area}/info{format}", status: "200", url: "/timezone/Europe/London/info?lang=ja" },
  { path: "/ip/{address}{format}", status: "200", url: "/ip/8.8.8.8?lang=fr" },
  { path: "/timezone/{area}{format}", status: "200", url: "/timezone/Europe/London" },
  { path: "/timezone/{area}{format}", status: "200", url: "/timezone/America/Argentina" },
  { path: "/timezone/{area}{format}", status: "400", url: "/timezone/UTC?at=noon" },
  { path: "/timezone/{area}{format}", status: "404", url: "/timezone/Nowhere/City" },
  { path: "/timezone/{area}{format}", status: "429", url: "/timezone/UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/ip{format}", status: "200", url: "/ip", headers: { "X-Forwarded-For": "8.8.8.8" } },
  { path: "/ip{format}", status: "400", url: "/ip?at=noon", headers: { "X-Forwarded-For": "8.8.8.8" } },
  { path: "/ip{format}", status: "404", url: "/ip" },
  { path: "/ip{format}", status: "429", url: "/ip", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/ip/{address}{format}", status: "200", url: "/ip/2001:4860:4860::8888" },
  { path: "/ip/{address}{format}", status: "400", url: "/ip/1.2.3" },
  { path: "/ip/{address}{format}", status: "404", url: "/ip/192.168.1.1" },
  { path: "/ip/{address}{format}", status: "429", url: "/ip/8.8.8.8", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/transitions{format}", status: "200", url: "/timezone/Europe/Dublin/transitions?from=2026-01-01T00:00:00Z" },
  { path: "/timezone/{area}/transitions{format}", status: "304", url: "/timezone/Europe/Dublin/transitions?from=2026-01-01T00:00:00Z", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/transitions{format}", status: "400", url: "/timezone/UTC/transitions?from=noon" },
  { path: "/timezone/{area}/transitions{format}", status: "404", url: "/timezone/Nowhere/City/transitions" },
  { path: "/timezone/{area}/transitions{format}", status: "429", url: "/timezone/UTC/transitions", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/info{format}", status: "200", url: "/timezone/US/Eastern/info" },
  { path: "/timezone/{area}/info{format}", status: "200", url: "/timezone/UTC/info" },
  { path: "/timezone/{area}/info{format}", status: "304", url: "/timezone/UTC/info", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/info{format}", status: "400", url: "/timezone/UTC/info?at=noon" },
  { path: "/timezone/{area}/info{format}", status: "404", url: "/timezone/Nowhere/City/info" },
  { path: "/timezone/{area}/info{format}", status: "429", url: "/timezone/UTC/info", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/device{format}", status: "200", url: "/timezone/America/Havana/device?at=2026-11-23T00:00:00Z" },
  { path: "/timezone/{area}/device{format}", status: "200", url: "/timezone/UTC/device" },
  { path: "/timezone/{area}/device{format}", status: "304", url: "/timezone/UTC/device", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/device{format}", status: "400", url: "/timezone/UTC/device?at=noon" },
  { path: "/timezone/{area}/device{format}", status: "404", url: "/timezone/Nowhere/City/device" },
  { path: "/timezone/{area}/device{format}", status: "429", url: "/timezone/UTC/device", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/device{format}", status: "200", url: "/device" },
  { path: "/device{format}", status: "304", url: "/device", headers: { "If-None-Match": "*" } },
  { path: "/device{format}", status: "400", url: "/device?at=noon" },
  { path: "/device{format}", status: "429", url: "/device", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/device.csv", status: "200", url: "/device.csv" },
  { path: "/device.csv", status: "304", url: "/device.csv", headers: { "If-None-Match": "*" } },
  { path: "/device.csv", status: "400", url: "/device.csv?at=noon" },
  { path: "/device.csv", status: "429", url: "/device.csv", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/convert{format}", status: "200", url: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/Dublin" },
  { path: "/convert{format}", status: "304", url: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=UTC", headers: { "If-None-Match": "*" } },
  { path: "/convert{format}", status: "400", url: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=UTC&disambiguation=reject" },
  { path: "/convert{format}", status: "404", url: "/convert?time=2026-03-08T02:30:00&from=Nowhere/City&to=UTC" },
  { path: "/convert{format}", status: "429", url: "/convert?time=2026-03-08T02:30:00&from=UTC&to=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/{area}/{location}{format}", status: "200", url: "/api/Europe/London" },
  { path: "/api/{area}/{location}{format}", status: "400", url: "/api/Europe/London?at=noon" },
  { path: "/api/{area}/{location}{format}", status: "404", url: "/api/Nowhere/City" },
  { path: "/api/{area}/{location}{format}", status: "429", url: "/api/Europe/London", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api", status: "200", url: "/api" },
  { path: "/api", status: "429", url: "/api", headers: { "X-Forwarded-For": "203.0.113.1" } },
  // A place the data gives two zones, so the documented X-Other-Timezones is there too.
  { path: "/coordinates/{point}{format}", status: "200", url: "/coordinates/38.7503,85.9829" },
  { path: "/coordinates/{point}{format}", status: "400", url: "/coordinates/91,0" },
  { path: "/coordinates/{point}{format}", status: "429", url: "/coordinates/51.5074,-0.1278", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/places", status: "200", url: "/places?q=sao%20pau&limit=3" },
  { path: "/places", status: "304", url: "/places?q=paris", headers: { "If-None-Match": "*" } },
  { path: "/places", status: "400", url: "/places?q=paris&limit=51" },
  { path: "/places", status: "429", url: "/places?q=paris", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/clock{format}", status: "200", url: "/clock?zones=Europe/Dublin,US/Eastern,Asia/Kathmandu" },
  { path: "/clock{format}", status: "400", url: "/clock?zones=UTC&at=noon" },
  { path: "/clock{format}", status: "404", url: "/clock?zones=UTC,Nowhere/City" },
  { path: "/clock{format}", status: "429", url: "/clock?zones=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/sync", status: "200", url: "/sync?t0=1795219200123.456" },
  { path: "/sync", status: "400", url: "/sync?t0=1e400" },
  { path: "/sync", status: "429", url: "/sync", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/sync", status: "503", url: "/sync", diverged: true },
  { path: "/health", status: "200", url: "/health" },
  { path: "/health", status: "503", url: "/health", draining: true },
  { path: "/metrics", status: "200", url: "/metrics" },
  // The dialects (timeapi.io, TimeZoneDB, Google): each documented (path, method, status).
  { path: "/api/Time/current/zone", status: "200", url: "/api/Time/current/zone?timeZone=Europe/Madrid" },
  { path: "/api/Time/current/zone", status: "400", url: "/api/time/current/zone?timezone=Nowhere" },
  { path: "/api/Time/current/zone", status: "429", url: "/api/Time/current/zone?timeZone=Europe/Madrid", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/Time/current/coordinate", status: "200", url: "/api/Time/current/coordinate?latitude=40.4&longitude=-3.7" },
  { path: "/api/Time/current/coordinate", status: "400", url: "/api/Time/current/coordinate?latitude=91&longitude=0" },
  { path: "/api/Time/current/coordinate", status: "429", url: "/api/Time/current/coordinate?latitude=40.4&longitude=-3.7", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/Time/current/ip", status: "200", url: "/api/Time/current/ip?ipAddress=8.8.8.8" },
  { path: "/api/Time/current/ip", status: "400", url: "/api/Time/current/ip?ipAddress=1.2.3" },
  { path: "/api/Time/current/ip", status: "404", url: "/api/Time/current/ip?ipAddress=192.168.1.1" },
  { path: "/api/Time/current/ip", status: "429", url: "/api/Time/current/ip?ipAddress=8.8.8.8", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/TimeZone/zone", status: "200", url: "/api/TimeZone/zone?timeZone=Europe/Madrid" },
  { path: "/api/TimeZone/zone", status: "400", url: "/api/TimeZone/zone?timeZone=Nowhere" },
  { path: "/api/TimeZone/zone", status: "429", url: "/api/TimeZone/zone?timeZone=Europe/Madrid", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/TimeZone/coordinate", status: "200", url: "/api/TimeZone/coordinate?latitude=-33.87&longitude=151.21" },
  { path: "/api/TimeZone/coordinate", status: "400", url: "/api/TimeZone/coordinate?latitude=x&longitude=0" },
  { path: "/api/TimeZone/coordinate", status: "429", url: "/api/TimeZone/coordinate?latitude=-33.87&longitude=151.21", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/TimeZone/ip", status: "200", url: "/api/TimeZone/ip?ipAddress=1.1.1.1" },
  { path: "/api/TimeZone/ip", status: "400", url: "/api/TimeZone/ip?ipAddress=1.2.3" },
  { path: "/api/TimeZone/ip", status: "404", url: "/api/TimeZone/ip?ipAddress=10.0.0.1" },
  { path: "/api/TimeZone/ip", status: "429", url: "/api/TimeZone/ip?ipAddress=1.1.1.1", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/Conversion/DayOfTheWeek/{date}", status: "200", url: "/api/Conversion/DayOfTheWeek/2025-06-11" },
  { path: "/api/Conversion/DayOfTheWeek/{date}", status: "400", url: "/api/Conversion/DayOfTheWeek/2025-13-01" },
  { path: "/api/Conversion/DayOfTheWeek/{date}", status: "429", url: "/api/Conversion/DayOfTheWeek/2025-06-11", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/Conversion/DayOfTheYear/{date}", status: "200", url: "/api/Conversion/DayOfTheYear/2025-06-11" },
  { path: "/api/Conversion/DayOfTheYear/{date}", status: "400", url: "/api/Conversion/DayOfTheYear/june" },
  { path: "/api/Conversion/DayOfTheYear/{date}", status: "429", url: "/api/Conversion/DayOfTheYear/2025-06-11", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/time/current/zone", status: "200", url: "/api/v1/time/current/zone?timezone=UTC" },
  { path: "/api/v1/time/current/zone", status: "400", url: "/api/v1/time/current/zone?timezone=Nowhere" },
  { path: "/api/v1/time/current/zone", status: "429", url: "/api/v1/time/current/zone?timezone=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/time/current/coordinate", status: "200", url: "/api/v1/time/current/coordinate?latitude=1&longitude=2" },
  { path: "/api/v1/time/current/coordinate", status: "400", url: "/api/v1/time/current/coordinate?latitude=1" },
  { path: "/api/v1/time/current/coordinate", status: "429", url: "/api/v1/time/current/coordinate?latitude=1&longitude=2", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/time/current/ip", status: "200", url: "/api/v1/time/current/ip?ipAddress=8.8.8.8" },
  { path: "/api/v1/time/current/ip", status: "400", url: "/api/v1/time/current/ip?ipAddress=x" },
  { path: "/api/v1/time/current/ip", status: "429", url: "/api/v1/time/current/ip?ipAddress=8.8.8.8", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/timezone/zone", status: "200", url: "/api/v1/timezone/zone?timeZone=America/Chicago" },
  { path: "/api/v1/timezone/zone", status: "400", url: "/api/v1/timezone/zone?timeZone=x" },
  { path: "/api/v1/timezone/zone", status: "429", url: "/api/v1/timezone/zone?timeZone=America/Chicago", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/timezone/coordinate", status: "200", url: "/api/v1/timezone/coordinate?latitude=41.88&longitude=-87.63" },
  { path: "/api/v1/timezone/coordinate", status: "400", url: "/api/v1/timezone/coordinate" },
  { path: "/api/v1/timezone/coordinate", status: "429", url: "/api/v1/timezone/coordinate?latitude=41.88&longitude=-87.63", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/timezone/ip", status: "200", url: "/api/v1/timezone/ip?ipAddress=8.8.8.8" },
  { path: "/api/v1/timezone/ip", status: "400", url: "/api/v1/timezone/ip?ipAddress=x" },
  { path: "/api/v1/timezone/ip", status: "429", url: "/api/v1/timezone/ip?ipAddress=8.8.8.8", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/TimeZone/AvailableTimeZones", status: "200", url: "/api/timezone/availabletimezones" },
  { path: "/api/TimeZone/AvailableTimeZones", status: "429", url: "/api/timezone/availabletimezones", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/Health/Check", status: "200", url: "/api/health/check" },
  { path: "/api/Health/Check", status: "429", url: "/api/health/check", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/time/current/unix", status: "200", url: "/api/v1/time/current/unix" },
  { path: "/api/v1/time/current/unix", status: "429", url: "/api/v1/time/current/unix", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/v1/timezone/availabletimezones", status: "200", url: "/api/v1/timezone/availabletimezones" },
  { path: "/api/v1/timezone/availabletimezones", status: "429", url: "/api/v1/timezone/availabletimezones", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/api/Conversion/ConvertTimeZone", status: "200", url: "/api/Conversion/ConvertTimeZone", method: "post", body: JSON.stringify({ fromTimeZone: "America/New_York", dateTime: "2026-04-18 12:00:00", toTimeZone: "Europe/London" }) },
  { path: "/api/Conversion/ConvertTimeZone", status: "400", url: "/api/Conversion/ConvertTimeZone", method: "post", body: JSON.stringify({ fromTimeZone: "x", dateTime: "2026-04-18 12:00:00", toTimeZone: "UTC" }) },
  { path: "/api/Conversion/ConvertTimeZone", status: "405", url: "/api/Conversion/ConvertTimeZone" },
  { path: "/api/Conversion/ConvertTimeZone", status: "413", url: "/api/Conversion/ConvertTimeZone", method: "post", body: "x".repeat(16 * 1024 + 1) },
  { path: "/api/Conversion/ConvertTimeZone", status: "429", url: "/api/Conversion/ConvertTimeZone", headers: { "X-Forwarded-For": "203.0.113.1" }, method: "post", body: JSON.stringify({ fromTimeZone: "America/New_York", dateTime: "2026-04-18 12:00:00", toTimeZone: "Europe/London" }) },
  { path: "/api/Conversion/Translate", status: "200", url: "/api/Conversion/Translate", method: "post", body: JSON.stringify({ dateTime: "2021-03-14 17:45:00", languageCode: "de" }) },
  { path: "/api/Conversion/Translate", status: "400", url: "/api/Conversion/Translate", method: "post", body: JSON.stringify({ dateTime: "2021-03-14 17:45:00", languageCode: "zz" }) },
  { path: "/api/Conversion/Translate", status: "405", url: "/api/Conversion/Translate" },
  { path: "/api/Conversion/Translate", status: "413", url: "/api/Conversion/Translate", method: "post", body: "x".repeat(16 * 1024 + 1) },
  { path: "/api/Conversion/Translate", status: "429", url: "/api/Conversion/Translate", headers: { "X-Forwarded-For": "203.0.113.1" }, method: "post", body: JSON.stringify({ dateTime: "2021-03-14 17:45:00", languageCode: "de" }) },
  { path: "/api/Calculation/current/increment", status: "200", url: "/api/Calculation/current/increment", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04" }) },
  { path: "/api/Calculation/current/increment", status: "400", url: "/api/Calculation/current/increment", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "soon", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/current/increment", status: "405", url: "/api/Calculation/current/increment" },
  { path: "/api/Calculation/current/increment", status: "413", url: "/api/Calculation/current/increment", method: "post", body: "x".repeat(16 * 1024 + 1) },
  { path: "/api/Calculation/current/increment", status: "429", url: "/api/Calculation/current/increment", headers: { "X-Forwarded-For": "203.0.113.1" }, method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04" }) },
  { path: "/api/Calculation/current/decrement", status: "200", url: "/api/Calculation/current/decrement", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04" }) },
  { path: "/api/Calculation/current/decrement", status: "400", url: "/api/Calculation/current/decrement", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "soon", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/current/decrement", status: "405", url: "/api/Calculation/current/decrement" },
  { path: "/api/Calculation/current/decrement", status: "413", url: "/api/Calculation/current/decrement", method: "post", body: "x".repeat(16 * 1024 + 1) },
  { path: "/api/Calculation/current/decrement", status: "429", url: "/api/Calculation/current/decrement", headers: { "X-Forwarded-For": "203.0.113.1" }, method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04" }) },
  { path: "/api/Calculation/custom/increment", status: "200", url: "/api/Calculation/custom/increment", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/custom/increment", status: "400", url: "/api/Calculation/custom/increment", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "soon", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/custom/increment", status: "405", url: "/api/Calculation/custom/increment" },
  { path: "/api/Calculation/custom/increment", status: "413", url: "/api/Calculation/custom/increment", method: "post", body: "x".repeat(16 * 1024 + 1) },
  { path: "/api/Calculation/custom/increment", status: "429", url: "/api/Calculation/custom/increment", headers: { "X-Forwarded-For": "203.0.113.1" }, method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/custom/decrement", status: "200", url: "/api/Calculation/custom/decrement", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/custom/decrement", status: "400", url: "/api/Calculation/custom/decrement", method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "soon", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/api/Calculation/custom/decrement", status: "405", url: "/api/Calculation/custom/decrement" },
  { path: "/api/Calculation/custom/decrement", status: "413", url: "/api/Calculation/custom/decrement", method: "post", body: "x".repeat(16 * 1024 + 1) },
  { path: "/api/Calculation/custom/decrement", status: "429", url: "/api/Calculation/custom/decrement", headers: { "X-Forwarded-For": "203.0.113.1" }, method: "post", body: JSON.stringify({ timeZone: "Europe/Paris", timeSpan: "1:02:03:04", dateTime: "2026-03-29 01:30:00" }) },
  { path: "/v2.1/get-time-zone", status: "200", url: "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=America/Denver" },
  { path: "/v2.1/get-time-zone", status: "429", url: "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/v2.1/list-time-zone", status: "200", url: "/v2.1/list-time-zone?key=k&format=json&country=AR&fields=zoneName,dst" },
  { path: "/v2.1/list-time-zone", status: "429", url: "/v2.1/list-time-zone?key=k&format=json", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/v2.1/convert-time-zone", status: "200", url: "/v2.1/convert-time-zone?key=k&format=json&from=PST&to=Nowhere" },
  { path: "/v2.1/convert-time-zone", status: "429", url: "/v2.1/convert-time-zone?key=k&format=json&from=UTC&to=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/v2/get-time-zone", status: "200", url: "/v2/get-time-zone?key=k&format=json&by=zone&zone=America/Denver" },
  { path: "/v2/get-time-zone", status: "429", url: "/v2/get-time-zone?key=k&format=json&by=zone&zone=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/v2/list-time-zone", status: "200", url: "/v2/list-time-zone?key=k&format=json&country=AR&fields=zoneName,dst" },
  { path: "/v2/list-time-zone", status: "429", url: "/v2/list-time-zone?key=k&format=json", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/v2/convert-time-zone", status: "200", url: "/v2/convert-time-zone?key=k&format=json&from=PST&to=Nowhere" },
  { path: "/v2/convert-time-zone", status: "429", url: "/v2/convert-time-zone?key=k&format=json&from=UTC&to=UTC", headers: { "X-Forwarded-For": "203.0.113.1" } },
  // TimeZoneDB v1 at the root: by zone and by position, JSON and XML, a refusal.
  { path: "/", status: "200", url: "/?key=K&zone=America/Chicago&format=json" },
  { path: "/", status: "200", url: "/?key=K&lat=40.7&lng=-74&format=json&time=1464793200" },
  { path: "/", status: "200", url: "/?key=K&zone=Nowhere&format=json" },
  { path: "/", status: "200", url: "/?key=K&zone=America/Chicago&format=xml" },
  { path: "/", status: "429", url: "/?key=K&zone=UTC&format=json", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/maps/api/timezone/json", status: "200", url: "/maps/api/timezone/json?location=19.076,72.8777&timestamp=1331161200&key=AIza" },
  { path: "/maps/api/timezone/xml", status: "200", url: "/maps/api/timezone/xml?location=19.076,72.8777&timestamp=1331161200&key=AIza" },
  // The time machine: `tzdb=` on the routes that answer from tz rules (a 404 naming a release not served), its own routes.
  { path: "/timezone{format}", status: "200", url: "/timezone?tzdb=2012e" },
  { path: "/timezone{format}", status: "404", url: "/timezone?tzdb=2019x" },
  { path: "/timezone/{area}{format}", status: "200", url: "/timezone/America/Vancouver?tzdb=2025c" },
  { path: "/coordinates/{point}{format}", status: "200", url: "/coordinates/38.7503,85.9829?tzdb=2025c" },
  { path: "/coordinates/{point}{format}", status: "404", url: "/coordinates/49.28,-123.12?tzdb=2019x" },
  { path: "/timezone/{area}/device{format}", status: "200", url: "/timezone/America/Vancouver/device?tzdb=2025c" },
  { path: "/device{format}", status: "200", url: "/device?tzdb=2012e" },
  { path: "/device{format}", status: "404", url: "/device?tzdb=2019x" },
  { path: "/device.csv", status: "200", url: "/device.csv?tzdb=2012e" },
  { path: "/device.csv", status: "404", url: "/device.csv?tzdb=2019x" },
  { path: "/clock{format}", status: "200", url: "/clock?zones=America/Vancouver,UTC&tzdb=2025c" },
  { path: "/api/Time/current/zone", status: "404", url: "/api/Time/current/zone?timeZone=UTC&tzdb=2019x" },
  { path: "/api/Time/current/coordinate", status: "404", url: "/api/Time/current/coordinate?latitude=40.4&longitude=-3.7&tzdb=2019x" },
  { path: "/api/TimeZone/zone", status: "200", url: "/api/TimeZone/zone?timeZone=America/Vancouver&tzdb=2025c" },
  { path: "/api/TimeZone/zone", status: "404", url: "/api/TimeZone/zone?timeZone=UTC&tzdb=2019x" },
  { path: "/api/TimeZone/coordinate", status: "404", url: "/api/TimeZone/coordinate?latitude=-33.87&longitude=151.21&tzdb=2019x" },
  { path: "/api/TimeZone/AvailableTimeZones", status: "404", url: "/api/timezone/availabletimezones?tzdb=2019x" },
  { path: "/api/v1/time/current/zone", status: "404", url: "/api/v1/time/current/zone?timezone=UTC&tzdb=2019x" },
  { path: "/api/v1/time/current/coordinate", status: "404", url: "/api/v1/time/current/coordinate?latitude=1&longitude=2&tzdb=2019x" },
  { path: "/api/v1/time/current/ip", status: "404", url: "/api/v1/time/current/ip?ipAddress=8.8.8.8&tzdb=2019x" },
  { path: "/api/v1/timezone/zone", status: "404", url: "/api/v1/timezone/zone?timeZone=UTC&tzdb=2019x" },
  { path: "/api/v1/timezone/coordinate", status: "404", url: "/api/v1/timezone/coordinate?latitude=41.88&longitude=-87.63&tzdb=2019x" },
  { path: "/api/v1/timezone/ip", status: "404", url: "/api/v1/timezone/ip?ipAddress=8.8.8.8&tzdb=2019x" },
  { path: "/api/v1/timezone/availabletimezones", status: "404", url: "/api/v1/timezone/availabletimezones?tzdb=2019x" },
  { path: "/v2.1/get-time-zone", status: "200", url: "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=America/Vancouver&tzdb=2025c" },
  { path: "/maps/api/timezone/json", status: "200", url: "/maps/api/timezone/json?location=49.28,-123.12&timestamp=1796083200&key=AIza&tzdb=2025c" },
  { path: "/tzdb", status: "200", url: "/tzdb" },
  { path: "/tzdb", status: "304", url: "/tzdb", headers: { "If-None-Match": "*" } },
  { path: "/tzdb", status: "429", url: "/tzdb", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/tzdb/{release}/changes", status: "200", url: "/tzdb/2026b/changes" },
  { path: "/tzdb/{release}/changes", status: "304", url: "/tzdb/2026b/changes", headers: { "If-None-Match": "*" } },
  { path: "/tzdb/{release}/changes", status: "400", url: "/tzdb/2025c/changes?since=2026c" },
  { path: "/tzdb/{release}/changes", status: "404", url: "/tzdb/2031a/changes" },
  { path: "/tzdb/{release}/changes", status: "429", url: "/tzdb/2026b/changes", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/changes", status: "200", url: "/timezone/America/Vancouver/changes?from=2025c" },
  { path: "/timezone/{area}/changes", status: "304", url: "/timezone/America/Vancouver/changes?from=2025c", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/changes", status: "400", url: "/timezone/Europe/London/changes?from=2026c&to=2025c" },
  { path: "/timezone/{area}/changes", status: "404", url: "/timezone/Europe/Kyiv/changes?from=2012e" },
  { path: "/timezone/{area}/changes", status: "429", url: "/timezone/Europe/London/changes", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/tzdb/feed.atom", status: "200", url: "/tzdb/feed.atom" },
  { path: "/tzdb/feed.atom", status: "304", url: "/tzdb/feed.atom", headers: { "If-None-Match": "*" } },
  { path: "/tzdb/feed.atom", status: "429", url: "/tzdb/feed.atom", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/tzdb/feed.json", status: "200", url: "/tzdb/feed.json" },
  { path: "/tzdb/feed.json", status: "304", url: "/tzdb/feed.json", headers: { "If-None-Match": "*" } },
  { path: "/tzdb/feed.json", status: "429", url: "/tzdb/feed.json", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/feed.atom", status: "200", url: "/timezone/America/Vancouver/feed.atom" },
  { path: "/timezone/{area}/feed.atom", status: "304", url: "/timezone/America/Vancouver/feed.atom", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/feed.atom", status: "404", url: "/timezone/Nowhere/Place/feed.atom" },
  { path: "/timezone/{area}/feed.atom", status: "429", url: "/timezone/America/Vancouver/feed.atom", headers: { "X-Forwarded-For": "203.0.113.1" } },
  { path: "/timezone/{area}/feed.json", status: "200", url: "/timezone/America/Vancouver/feed.json" },
  { path: "/timezone/{area}/feed.json", status: "304", url: "/timezone/America/Vancouver/feed.json", headers: { "If-None-Match": "*" } },
  { path: "/timezone/{area}/feed.json", status: "404", url: "/timezone/Nowhere/Place/feed.json" },
  { path: "/timezone/{area}/feed.json", status: "429", url: "/timezone/America/Vancouver/feed.json", headers: { "X-Forwarded-For": "203.0.113.1" } },
];

test("every documented status is produced, and every response fits its schema", async () => {
  // Use up the rate-limited client's burst (3) so that its next requests are refused.
  for (let i = 0; i < 3; i++) await fetch(`${base}/timezone/UTC`, { headers: { "X-Forwarded-For": "203.0.113.1" } });
  const problems: string[] = [];
  const produced = new Set<string>();
  for (const r of REQUESTS) {
    service.state.draining = r.draining ?? false;
    const check = service.state.clockCheck;
    // A serving clock two seconds off the system clock: what /health calls clock_diverged.
    if (r.diverged) service.state.clockCheck = new ClockCheck(() => ({ ...realtimeClock(), seconds: realtimeClock().seconds + 2 }), () => {});
    const init = r.method === "post" ? { method: "POST", body: r.body, headers: { "content-type": "application/json", ...r.headers } } : { headers: r.headers };
    const response = await fetch(`${base}${r.url}`, init);
    service.state.draining = false;
    service.state.clockCheck = check;
    if (String(response.status) !== r.status) {
      problems.push(`${r.url}: ${response.status}, expected ${r.status}`);
      continue;
    }
    const method = r.method ?? (openapi.paths[r.path].get ? "get" : "post");
    produced.add(`${r.path} ${method} ${r.status}`);
    const documented = resolveRef(openapi.paths[r.path][method].responses[r.status], openapi);
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!;
    const media = documented.content?.[type];
    if (documented.content && !media) problems.push(`${r.url}: ${type} not documented for ${r.status}`);
    if (media?.schema && type === "application/json") {
      problems.push(...validate(await response.json(), media.schema, openapi, r.url));
    }
    for (const header of Object.keys(documented.headers ?? {})) {
      if (!response.headers.has(header)) problems.push(`${r.url}: documented header ${header} missing`);
    }
  }
  expect(problems).toEqual([]);
  const documentedStatuses = Object.entries(openapi.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).flatMap(([method, op]: [string, any]) => Object.keys(op.responses).map((status) => `${path} ${method} ${status}`)));
  expect(documentedStatuses.filter((s) => !produced.has(s))).toEqual([]);
}, 180_000);

test("every dialect route is documented, with its method", () => {
  // timeapi.io's rows sit under /api and match in any case; the others are their own paths.
  const documented = new Map(Object.entries(openapi.paths).map(([path, item]) => [path.toLowerCase(), item as Record<string, unknown>]));
  const missing = [...DIALECT_ROUTES, TIMEZONEDB_V1_ROW].flatMap((row) => {
    const path = (row.on === "api" ? `/api${row.pattern}` : row.pattern).toLowerCase();
    const method = row.post ? "post" : "get";
    return documented.get(path)?.[method] ? [] : [`${method.toUpperCase()} ${path}`];
  });
  expect(missing).toEqual([]);
});

test("WorldTimeAPI-profile answers fit the same schema", async () => {
  const body = await (await fetch(`${base}/api/timezone/Europe/Dublin?at=2026-01-15T12:00:00Z`)).json();
  expect(validate(body, { $ref: "#/components/schemas/TimeObject" }, openapi)).toEqual([]);
});

test("/openapi.json serves the repository's document", async () => {
  const r = await fetch(`${base}/openapi.json`);
  expect(r.status).toBe(200);
  expect(r.headers.get("access-control-allow-origin")).toBe("*");
  expect(await r.json()).toEqual(openapi);
});

test("a parameter or answer several endpoints share is written once: every $ref names a component there is, and every component is used", () => {
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) key === "$ref" ? refs.push(value as string) : walk(value);
    }
  };
  walk(openapi);
  expect(refs.filter((ref) => resolveRef({ $ref: ref }, openapi) === undefined)).toEqual([]);
  const components = Object.entries(openapi.components as Record<string, object>).flatMap(([kind, all]) => Object.keys(all).map((name) => `#/components/${kind}/${name}`));
  expect(components.filter((c) => !refs.includes(c))).toEqual([]);
  // Written once: no parameter or answer object appears twice in full among the operations.
  const inline = Object.values(openapi.paths).flatMap((item: any) => Object.values(item).flatMap((op: any) =>
    [...(op.parameters ?? []), ...Object.values(op.responses ?? {})].filter((x: any) => x.$ref === undefined).map((x) => JSON.stringify(x))));
  const repeated = inline.filter((x, i) => inline.indexOf(x) !== i && x.length >= 300);
  expect(repeated).toEqual([]);
});
