// Done-when 4: bad input to each dialect answers that dialect's own error (timeapi.io's
// text, v1's {"detail"}, TimeZoneDB's status FAILED, Google's INVALID_REQUEST), never a 5xx
// and never the service's {"error": ...}; JSONP names only plain identifiers; every XML
// answer parses (Python's expat, a real XML parser) and escapes what it must.

import { beforeAll, describe, expect, test } from "bun:test";
import { requireTool } from "../../support/require-tool.ts";
import { testHandler } from "../../support/test-server.ts";

let handler: (req: Request) => Response | Promise<Response>;
beforeAll(async () => {
  handler = await testHandler();
}, 120_000);

async function call(path: string, init?: RequestInit) {
  const response = await handler(new Request(`http://zonetime.test${path}`, init));
  return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() };
}

const ourShape = (body: string) => {
  try {
    const parsed = JSON.parse(body);
    return parsed !== null && typeof parsed === "object" && "error" in parsed;
  } catch {
    return false;
  }
};

const TIMEAPI_BAD = [
  "/api/Time/current/zone", "/api/Time/current/zone?timeZone=", "/api/Time/current/zone?timeZone=Mars/Olympus",
  "/api/time/current/zone?timezone=%E0%A4", "/api/TimeZone/zone?timeZone=" + "A".repeat(5000),
  "/api/Time/current/coordinate?latitude=91&longitude=0", "/api/Time/current/coordinate?latitude=1e3&longitude=0",
  "/api/Time/current/coordinate?latitude=NaN&longitude=Infinity", "/api/TimeZone/coordinate?latitude=10",
  "/api/Time/current/ip?ipAddress=999.1.1.1", "/api/TimeZone/ip?ipAddress=", "/api/TimeZone/ip?ipAddress=10.0.0.1",
  "/api/Conversion/DayOfTheWeek/2025-02-30", "/api/Conversion/DayOfTheYear/yesterday", "/api/Conversion/ConvertTimeZone",
];
const V1_BAD = [
  "/api/v1/time/current/zone?timezone=Nope", "/api/v1/timezone/zone", "/api/v1/time/current/coordinate?latitude=x&longitude=y",
  "/api/v1/time/current/ip?ipAddress=::zz", "/api/v1/timezone/coordinate?latitude=-90.5&longitude=0",
];
const POSTS: [string, string, string][] = [
  ["/api/Conversion/ConvertTimeZone", "application/json", "{not json"],
  ["/api/Conversion/ConvertTimeZone", "application/json", `{"fromTimeZone":"Europe/Nowhere","dateTime":"2021-03-14 17:45:00","toTimeZone":"UTC"}`],
  ["/api/Conversion/ConvertTimeZone", "application/json", `{"fromTimeZone":"UTC","dateTime":"2021-02-30 17:45:00","toTimeZone":"UTC"}`],
  ["/api/Conversion/ConvertTimeZone", "application/json", `{"fromTimeZone":"UTC","dateTime":"9999-12-31 23:59:59","toTimeZone":"Pacific/Kiritimati"}`],
  ["/api/Conversion/ConvertTimeZone", "application/json", `{"fromTimeZone":"UTC","dateTime":"2021-03-14 17:45:00","toTimeZone":"UTC","dstAmbiguity":"sometimes"}`],
  ["/api/Conversion/ConvertTimeZone", "application/json", `[1,2]`],
  ["/api/Calculation/custom/increment", "application/json", `{"timeZone":"UTC","dateTime":"2021-03-14 17:45:00","timeSpan":"forever"}`],
  ["/api/Calculation/custom/increment", "application/json", `{"timeZone":"UTC","dateTime":"9999-12-31 23:00:00","timeSpan":"999999:00:00:00"}`],
  ["/api/Calculation/current/decrement", "application/x-www-form-urlencoded", `timeZone=UTC`],
];
const TZDB_BAD = [
  "/v2.1/get-time-zone?key=k&format=json", "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=Nowhere/Land",
  "/v2.1/get-time-zone?key=k&format=json&by=position&lat=100&lng=0", "/v2.1/get-time-zone?key=k&format=json&by=ip&ip=not-an-ip",
  "/v2.1/get-time-zone?key=k&format=json&by=ip&ip=192.168.1.1", "/v2.1/get-time-zone?key=k&format=json&by=city&country=USA&city=x",
  "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC&time=soon", "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC&time=999999999999",
  "/v2/get-time-zone?key=k&format=yaml&by=zone&zone=UTC", "/v2.1/list-time-zone?key=k&format=json&country=USA",
  "/v2.1/convert-time-zone?key=k&format=json&from=UTC", "/v2.1/convert-time-zone?key=k&format=json&from=UTC&to=QQQ",
  "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC&callback=alert(document.cookie)",
  "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC&callback=a.b", "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC&callback=%3Cscript%3E",
];
const GOOGLE_BAD = [
  "/maps/api/timezone/json", "/maps/api/timezone/json?location=1,2", "/maps/api/timezone/json?timestamp=0",
  "/maps/api/timezone/json?location=91,0&timestamp=0", "/maps/api/timezone/json?location=abc&timestamp=0",
  "/maps/api/timezone/json?location=1,2&timestamp=tomorrow", "/maps/api/timezone/json?location=1,2&timestamp=1e400",
  "/maps/api/timezone/json?location=1,2&timestamp=-99999999999999", "/maps/api/timezone/json?location=1%2C2%2C3&timestamp=0",
  "/maps/api/timezone/xml?location=%ZZ&timestamp=0",
];

describe("bad input answers the dialect's own error", () => {
  test("timeapi.io legacy: 4xx text, never JSON {error}", async () => {
    for (const path of TIMEAPI_BAD) {
      const r = await call(path);
      expect({ path, status: r.status >= 400 && r.status < 500, ours: ourShape(r.body), text: r.type.startsWith("text/plain") }).toEqual({ path, status: true, ours: false, text: true });
    }
    expect((await call("/api/TimeZone/zone?timeZone=Mars/Olympus")).body).toBe("Invalid Timezone");
    for (const [path, type, body] of POSTS) {
      const r = await call(path, { method: "POST", headers: { "content-type": type }, body });
      expect({ path, body, status: r.status >= 400 && r.status < 500, ours: ourShape(r.body) }).toEqual({ path, body, status: true, ours: false });
    }
    const big = await call("/api/Conversion/ConvertTimeZone", { method: "POST", headers: { "content-type": "application/json" }, body: `{"x":"${"a".repeat(40000)}"}` });
    expect([big.status, ourShape(big.body)]).toEqual([413, false]);
    const put = await call("/api/TimeZone/zone?timeZone=UTC", { method: "PUT" });
    expect([put.status, put.type, ourShape(put.body)]).toEqual([405, "text/plain; charset=utf-8", false]);
    const get = await call("/api/Conversion/ConvertTimeZone");
    expect([get.status, get.body]).toEqual([405, "Method Not Allowed"]);
  });

  test("timeapi.io v1: 4xx {\"detail\": ...}", async () => {
    for (const path of V1_BAD) {
      const r = await call(path);
      expect({ path, status: r.status >= 400 && r.status < 500, detail: typeof JSON.parse(r.body).detail }).toEqual({ path, status: true, detail: "string" });
    }
  });

  test("TimeZoneDB: HTTP 200, status FAILED with a message, in the format asked for", async () => {
    for (const path of TZDB_BAD) {
      const r = await call(path);
      const body = JSON.parse(r.body);
      expect({ path, status: r.status, failed: body.status, message: typeof body.message, ours: "error" in body, jsonp: r.type.includes("javascript") })
        .toEqual({ path, status: 200, failed: "FAILED", message: "string", ours: false, jsonp: false });
    }
    const xml = await call("/v2.1/get-time-zone?key=k&by=zone&zone=Nowhere/Land");
    expect(xml.body).toBe(`<?xml version="1.0" encoding="UTF-8"?>\n<result><status>FAILED</status><message>Record not found.</message></result>`);
  });

  test("TimeZoneDB JSONP: a plain identifier wraps the JSON, anything else is refused", async () => {
    const r = await call("/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC&callback=handle_tz$1");
    expect(r.type).toStartWith("application/javascript");
    expect(r.body).toMatch(/^handle_tz\$1\(\{"status":"OK".*\}\);$/);
    expect(JSON.parse(r.body.slice("handle_tz$1(".length, -2)).zoneName).toBe("UTC");
  });

  test("Google: HTTP 200, INVALID_REQUEST with an errorMessage", async () => {
    for (const path of GOOGLE_BAD) {
      const r = await call(path);
      expect(r.status).toBe(200);
      if (path.includes("/xml")) {
        expect(r.body).toContain("<status>INVALID_REQUEST</status>");
        expect(r.body).toContain("<error_message>");
        continue;
      }
      const body = JSON.parse(r.body);
      expect({ path, status: body.status, message: typeof body.errorMessage, ours: "error" in body }).toEqual({ path, status: "INVALID_REQUEST", message: "string", ours: false });
    }
  });

  test("every XML answer parses with a real XML parser, and escapes text", async () => {
    const python = requireTool("python3");
    const paths = [
      "/v2.1/get-time-zone?key=k&by=zone&zone=America/New_York", "/v2/get-time-zone?key=k&by=zone&zone=Asia/Taipei",
      "/v2.1/list-time-zone?key=k", "/v2.1/list-time-zone?key=k&country=BQ", "/v2.1/convert-time-zone?key=k&from=UTC&to=Asia/Kolkata",
      "/v2.1/get-time-zone?key=k&by=zone&zone=%3C%26%3E", "/v2.1/get-time-zone?key=k&format=xml&by=nothing",
      "/maps/api/timezone/xml?location=51.5,-0.12&timestamp=0", "/maps/api/timezone/xml?location=0,-30&timestamp=0",
      "/maps/api/timezone/xml?location=%3C%26%3E&timestamp=0",
    ];
    const bodies: string[] = [];
    for (const path of paths) bodies.push((await call(path)).body);
    const script = "import sys, json, xml.dom.minidom\nfor b in json.load(sys.stdin):\n  d = xml.dom.minidom.parseString(b.encode())\n  print(d.documentElement.tagName, len(d.getElementsByTagName('*')))";
    const run = Bun.spawnSync([python, "-c", script], { stdin: Buffer.from(JSON.stringify(bodies)) });
    expect(run.stderr.toString()).toBe("");
    const lines = run.stdout.toString().trim().split("\n");
    expect(lines.length).toBe(paths.length);
    expect(lines.filter((l) => l.startsWith("result ")).length).toBe(7);
    expect(lines.filter((l) => l.startsWith("TimeZoneResponse ")).length).toBe(3);
    // A text that needs escaping: the list holds country names with "&" (Bosnia & Herzegovina in iso3166.tab).
    const list = bodies[2]!;
    expect(list).toContain("&amp;");
    expect(list).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  });
});

describe("the WorldTimeAPI profile keeps every path", () => {
  test("a name under /api/timezone and /api is still a time object; unknown /api paths still 404 in our shape", async () => {
    for (const path of ["/api/timezone/Europe/London", "/api/Europe/London", "/api/timezone/America/Argentina/Salta", "/api/timezone/EST"]) {
      const r = await call(path);
      expect({ path, status: r.status, timezone: typeof JSON.parse(r.body).timezone }).toEqual({ path, status: 200, timezone: "string" });
    }
    expect((await call("/api/timezone/Europe")).body).toStartWith(`["Europe/`);
    const unknown = await call("/api/timezone/zone.txt");
    expect([unknown.status, unknown.body]).toEqual([404, "unknown location\n"]);
    expect(JSON.parse((await call("/api/nothing")).body)).toEqual({ error: "not found" });
  });
});
