// TimeZoneDB's v1 API at the root (`/?key=&zone=&format=json`, `/?key=&lat=&lng=`), served
// beside the website: an API request gets JSON or XML, a browser's `/` the home page.
// The clients that send it (HalleyAssist/timezonedb-client-ruby, AnatoliyGatt/timezonedb-node)
// are in neither ../shared/mirrors nor the npm registry, so their requests are made here as
// their source writes them: the path, and timezonedb-node's headers (Accept: application/json).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, testSiteDir } from "../../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: "off", SITE_DIR: await testSiteDir() });
}, 300_000);
afterAll(() => server?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const spec = async (path: string): Promise<any> => (await fetch(`${server.url}${path}`)).json();

/** timezonedb-node 1.0.3's request headers (lib/timezonedb.js), but Host and the dates. */
const NODE_CLIENT_HEADERS = { Accept: "application/json", "Accept-Charset": "utf-8", "Accept-Language": "en", "Cache-Control": "no-cache", Pragma: "no-cache", "User-Agent": "timezonedb-node/1.0.3" };

describe("TimeZoneDB v1 at the root", () => {
  test("by zone (timezonedb-node's request): v1's fields, gmtOffset a string, timestamp the local wall time", async () => {
    const at = 1752000000;
    const res = await fetch(`${server.url}/?key=DG2LCVSD76D5&format=json&zone=Australia%2FMelbourne&time=${at}`, { headers: NODE_CLIENT_HEADERS });
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const body = (await res.json()) as Record<string, unknown>;
    const want = await spec(`/timezone/Australia/Melbourne?at=${at}`);
    const offset = want.raw_offset + want.dst_offset;
    expect(body).toEqual({ status: "OK", message: "", countryCode: "AU", zoneName: "Australia/Melbourne", abbreviation: want.abbreviation,
      gmtOffset: String(offset), dst: want.dst ? "1" : "0", timestamp: at + offset });
    expect(Object.keys(body)).toEqual(["status", "message", "countryCode", "zoneName", "abbreviation", "gmtOffset", "dst", "timestamp"]);
  });

  test("by position (the Ruby gem's request: key, lat, lng, format=json, rest-client's Accept */*)", async () => {
    const res = await fetch(`${server.url}/?key=api_key_92834&lat=40.91331&lng=24.61922&format=json`, { headers: { Accept: "*/*" } });
    const body = (await res.json()) as Record<string, unknown>;
    const want = await spec("/coordinates/40.91331,24.61922");
    expect([body.status, body.zoneName, body.countryCode, body.gmtOffset]).toEqual(["OK", "Europe/Athens", "GR", String(want.raw_offset + want.dst_offset)]);
  });

  test("XML without format (v1's default), and FAIL refusals in the format asked for", async () => {
    const xml = await (await fetch(`${server.url}/?key=k&zone=Asia/Tokyo&time=1752000000`)).text();
    expect(xml).toContain("<result><status>OK</status><message/><countryCode>JP</countryCode><zoneName>Asia/Tokyo</zoneName><abbreviation>JST</abbreviation><gmtOffset>32400</gmtOffset><dst>0</dst><timestamp>1752032400</timestamp></result>");
    for (const query of ["zone=Melbourne", "lat=1000&lng=1000", "time=soon&zone=UTC", ""]) {
      const res = await fetch(`${server.url}/?key=k&format=json&${query}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.status).toBe("FAIL");
      expect(body.message).not.toBe("");
    }
  });

  test("a browser's / is the home page; an API client's / never is", async () => {
    const page = await fetch(`${server.url}/`, { headers: { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(page.headers.get("content-type")).toStartWith("text/html");
    expect(await page.text()).toContain("<html");
    // fetch()'s and curl's */*: the site, as before.
    expect((await fetch(`${server.url}/`)).headers.get("content-type")).toStartWith("text/html");
    // An API parameter: TimeZoneDB v1 (XML unless format=json); an Accept without HTML: the API's JSON index.
    for (const [query, accept, type] of [["?format=json", "*/*", "application/json"], ["?format=xml", "*/*", "text/xml"], ["?key=k", "text/html", "text/xml"],
      ["?zone=UTC&format=json", "text/html", "application/json"], ["", "application/json", "application/json"], ["", "text/html;q=0, application/json", "application/json"]]) {
      const res = await fetch(`${server.url}/${query}`, { headers: { Accept: accept! } });
      expect({ query, accept, type: res.headers.get("content-type")?.split(";")[0] }).toEqual({ query, accept, type });
    }
  });
});
