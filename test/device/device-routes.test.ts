// The device routes through the fetch handler: the strings themselves (Havana now, the
// Greenland zones whose footer newlib misreads), the bulk answer against the single ones,
// /info's device_tz, and the edges every route shares.

import { beforeAll, describe, expect, test } from "bun:test";
import { parsePosixTz } from "../../server/device/posix-tz.ts";
import { firstMismatch } from "../../server/device/string-check.ts";
import type { ZoneTable } from "../../server/tz/zone-table.ts";
import { startTestServer, testAnsweringHandler } from "../support/test-server.ts";
import { testZoneTable, utc } from "../support/zone-table.ts";

interface DeviceBody {
  timezone: string;
  posix_tz: string;
  valid_until: string | null;
  refresh_after: string;
}

let handler: (req: Request) => Response | Promise<Response>;
let table: ZoneTable;
const get = async (path: string, method = "GET") => await handler(new Request(`http://zonetime.test${path}`, { method }));
const json = async <T>(path: string): Promise<T> => {
  const response = await get(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
};

beforeAll(async () => {
  handler = await testAnsweringHandler();
  table = await testZoneTable();
}, 120_000);

describe("the strings", () => {
  test("America/Havana on 2026-11-23 (CDT all winter, zic's footer only from 2027-11-07): a string right until at least then", async () => {
    const at = "2026-11-23T00:00:00Z";
    const body = await json<DeviceBody>(`/timezone/America/Havana/device?at=${at}`);
    const info = await json<{ posix_tz: string; posix_tz_from: string }>(`/timezone/America/Havana/info?at=${at}`);
    console.log(`America/Havana at ${at}: ${JSON.stringify(body)}`);
    // The footer is what the old guide told devices to set: wrong now.
    const footerWrongFrom = firstMismatch(table, table.resolve("America/Havana")!.zone, parsePosixTz(info.posix_tz), utc(at), utc("2027-11-07T05:00:00Z"));
    expect(footerWrongFrom).toBe(utc(at));
    expect(body.posix_tz).not.toBe(info.posix_tz);
    expect(Date.parse(body.valid_until!)).toBeGreaterThanOrEqual(Date.parse(info.posix_tz_from));
    expect(firstMismatch(table, table.resolve("America/Havana")!.zone, parsePosixTz(body.posix_tz), utc(at), Date.parse(body.valid_until!) / 1000)).toBeNull();
    // Asked again at refresh_after, Havana gets zic's footer, right for good.
    const again = await json<DeviceBody>(`/timezone/America/Havana/device?at=${body.refresh_after}`);
    expect(again).toMatchObject({ posix_tz: info.posix_tz, valid_until: null });
  });

  test("America/Nuuk, Godthab and Scoresbysund: no negative rule hour in any string, asked monthly for 10 years", async () => {
    for (const name of ["America/Nuuk", "America/Godthab", "America/Scoresbysund"]) {
      const footer = (await json<{ posix_tz: string }>(`/timezone/${name}/info`)).posix_tz;
      expect(footer).toContain("/-1"); // zic's footer, which newlib reads as 65535 hours
      const seen = new Set<string>();
      for (let at = utc("2026-11-01T00:00:00Z"); at < utc("2036-11-01T00:00:00Z"); at += 30 * 86400) {
        const body = await json<DeviceBody>(`/timezone/${name}/device?at=${at}`);
        seen.add(body.posix_tz);
        expect(body.posix_tz).not.toMatch(/\/-/);
        expect(body.valid_until).not.toBeNull();
      }
      console.log(`${name}: ${[...seen].join("  ")}`);
    }
  });

  test("every name, at instants from 1900 to 2100: a string in the forms every libc reads alike, right until valid_until", async () => {
    const instants = ["1900-01-01T00:00:00Z", "1970-06-01T00:00:00Z", "2026-11-23T00:00:00Z", "2027-06-15T12:00:00Z", "2050-01-01T00:00:00Z", "2100-12-31T23:00:00Z"].map(utc);
    for (const name of table.names) {
      const zone = table.resolve(name)!.zone;
      for (const at of instants) {
        const body = await json<DeviceBody>(`/timezone/${name}/device?at=${at}`);
        const tz = parsePosixTz(body.posix_tz); // throws on a form some libc misreads
        const until = body.valid_until === null ? Math.min(at + 50 * 366 * 86400, utc("9999-01-01T00:00:00Z")) : Date.parse(body.valid_until) / 1000;
        expect({ name, at, wrongFrom: firstMismatch(table, zone, tz, at, until) }).toEqual({ name, at, wrongFrom: null });
        expect(Date.parse(body.refresh_after) / 1000).toBeGreaterThan(at);
      }
    }
  }, 120_000);
});

describe("the bulk answer", () => {
  const at = "2026-11-23T00:00:00Z";

  test("equals the 597 single answers at the same instant, as JSON and as posix_tz_db's CSV", async () => {
    const bulk = await json<{ tzdb_version: string; at: string; valid_until: string | null; refresh_after: string; zones: Record<string, Omit<DeviceBody, "timezone">> }>(`/device?at=${at}`);
    expect(Object.keys(bulk.zones)).toEqual([...table.names]);
    expect(Object.keys(bulk.zones).length).toBe(597);
    let earliest = Infinity;
    for (const name of table.names) {
      const single = await json<DeviceBody>(`/timezone/${name}/device?at=${at}`);
      expect({ timezone: name, ...bulk.zones[name] }).toEqual(single);
      if (single.valid_until !== null) earliest = Math.min(earliest, Date.parse(single.valid_until));
    }
    expect(bulk.valid_until).toBe(new Date(earliest).toISOString().replace(".000Z", "Z"));
    const csv = await get(`/device.csv?at=${at}`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const rows = (await csv.text()).trimEnd().split("\n");
    expect(rows).toEqual(table.names.map((name) => `"${name}","${bulk.zones[name]!.posix_tz}"`));
    const text = await (await get(`/device.txt?at=${at}`)).text();
    expect(text).toContain(`\nAmerica/Havana: ${bulk.zones["America/Havana"]!.posix_tz}\n`);
    expect(text.startsWith(`tzdb_version: ${bulk.tzdb_version}\nat: ${at}\n`)).toBe(true);
  }, 120_000);

  test("for now: cacheable until the earliest refresh_after (an hour at most), with an ETag", async () => {
    const response = await get("/device.csv");
    const body = await json<{ refresh_after: string }>("/device");
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get("cache-control")!)![1]);
    expect(maxAge).toBeLessThanOrEqual(Math.min(3600, Date.parse(body.refresh_after) / 1000 - Date.now() / 1000 + 1));
    expect(response.headers.get("etag")).toMatch(/^"tz-2026f-/);
    expect((await get(`/device.csv?at=${at}`)).headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=86400");
  });
});

describe("/info", () => {
  test("gains device_tz beside posix_tz, which stays zic's footer; JSON and .txt", async () => {
    const at = "2026-11-23T00:00:00Z";
    const info = await json<{ posix_tz: string; device_tz: Omit<DeviceBody, "timezone"> }>(`/timezone/America/Nuuk/info?at=${at}`);
    const device = await json<DeviceBody>(`/timezone/America/Nuuk/device?at=${at}`);
    expect(info.posix_tz).toBe("<-02>2<-01>,M3.5.0/-1,M10.5.0/0");
    expect({ timezone: "America/Nuuk", ...info.device_tz }).toEqual(device);
    const text = await (await get(`/timezone/America/Nuuk/info.txt?at=${at}`)).text();
    expect(text).toContain(`\ndevice_tz.posix_tz: ${device.posix_tz}\ndevice_tz.valid_until: ${device.valid_until}\ndevice_tz.refresh_after: ${device.refresh_after}\n`);
  });
});

describe("edges, as on the other routes", () => {
  test("unknown names answer 404 unknown location, in JSON or text", async () => {
    for (const path of ["/timezone/Mars/Olympus/device", "/timezone/Europe/Londonx/device?at=0", "/api/timezone/Nowhere/device"]) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "unknown location" });
    }
    const text = await get("/timezone/Mars/device.txt");
    expect(text.status).toBe(404);
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("unknown location\n");
  });

  test("a bad or out-of-range at answers 400, on the single and the bulk routes", async () => {
    for (const path of ["/timezone/UTC/device?at=tomorrow", "/timezone/UTC/device?at=10000-01-01T00:00:00Z", "/timezone/UTC/device?at=999999999999", "/device?at=-99999999999", "/device.csv?at=x"]) {
      const response = await get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect((await response.json()) as object).toHaveProperty("error");
    }
  });

  test("names in any case answer canonically; .txt is key: value lines; /api writes +00:00", async () => {
    const body = await json<DeviceBody>("/timezone/europe/london/device?at=2026-11-23T00:00:00Z");
    expect(body).toEqual({ timezone: "Europe/London", posix_tz: "GMT0BST,M3.5.0/1,M10.5.0", valid_until: null, refresh_after: "2026-12-23T00:00:00Z" });
    const text = await get("/timezone/Europe/London/device.txt?at=2026-11-23T00:00:00Z");
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("timezone: Europe/London\nposix_tz: GMT0BST,M3.5.0/1,M10.5.0\nvalid_until: \nrefresh_after: 2026-12-23T00:00:00Z\n");
    expect((await json<DeviceBody>("/api/timezone/Europe/London/device/?at=2026-11-23T00:00:00Z")).refresh_after).toBe("2026-12-23T00:00:00+00:00");
  });

  test("HEAD answers GET's headers without a body (a real server); POST is 405", async () => {
    const server = await startTestServer();
    try {
      for (const path of ["/timezone/Asia/Gaza/device?at=2026-11-23T00:00:00Z", "/device.csv?at=2026-11-23T00:00:00Z", "/timezone/Nowhere/device"]) {
        const head = await fetch(`${server.url}${path}`, { method: "HEAD" });
        const full = await fetch(`${server.url}${path}`);
        expect(head.status).toBe(full.status);
        expect(await head.text()).toBe("");
        expect((await full.text()).length).toBeGreaterThan(0);
        for (const h of ["content-type", "etag", "cache-control", "content-length"]) expect(head.headers.get(h)).toBe(full.headers.get(h));
      }
      const post = await fetch(`${server.url}/timezone/UTC/device`, { method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    } finally {
      server.stop();
    }
  });
});
