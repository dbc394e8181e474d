// The site's text files go out compressed to a client that takes it (issue 34: /timezones/
// and the zone map went out uncompressed to browsers asking for br): the build's own Brotli
// and gzip copies, chosen by Accept-Encoding, each the same bytes once decoded, each with
// its own ETag and Vary: Accept-Encoding; /favicon.ico exists. The choice of coding alone,
// by q-values, is tested on chooseSiteEncoding.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { StaticSite } from "../../server/http/bun/static-site.ts";
import { startServer, type Service } from "../../server/process/service.ts";
import { chooseSiteEncoding } from "../../server/http/bun/site-encoding.ts";
import { testConfig, testSiteDir } from "../support/test-server.ts";

let service: Service;
let base: string;
let siteDir: string;
beforeAll(async () => {
  siteDir = await testSiteDir();
  service = await startServer(await testConfig({ SITE_DIR: siteDir }), { sharePort: false });
  base = `http://127.0.0.1:${service.server.port}`;
}, 180_000);
afterAll(() => service?.server.stop(true));

/** The bytes as sent (Bun's fetch would otherwise decode them itself). */
async function raw(path: string, acceptEncoding: string, init: RequestInit = {}) {
  const r = await fetch(`${base}${path}`, { ...init, headers: { "Accept-Encoding": acceptEncoding, ...(init.headers as Record<string, string>) }, decompress: false } as RequestInit);
  return { r, body: new Uint8Array(await r.arrayBuffer()) };
}

describe("precompressed site files", () => {
  // The three: the Timezones page, the map's data, and the largest page after them.
  const PATHS = ["/timezones/", "/zone-map.json", "/docs/", "/", "/zones/Europe/London/"];

  test("br when the client takes br, gzip when only gzip, the file itself otherwise; the same bytes decoded", async () => {
    for (const path of PATHS) {
      const plain = await raw(path, "identity");
      expect(plain.r.status).toBe(200);
      expect(plain.r.headers.get("content-encoding")).toBeNull();
      // `/` is also negotiated by Accept (the API's index for a client that refuses HTML).
      expect(plain.r.headers.get("vary")).toBe(path === "/" ? "Accept, Accept-Encoding" : "Accept-Encoding");
      // The file as the build wrote it (a worker holds it only compressed: static-site.ts).
      const file = join(siteDir, path.endsWith("/") ? `${path}index.html` : path);
      expect({ path, same: Buffer.from(plain.body).equals(readFileSync(file)) }).toEqual({ path, same: true });
      const br = await raw(path, "br, gzip");
      expect({ path, coding: br.r.headers.get("content-encoding") }).toEqual({ path, coding: "br" });
      expect(Buffer.from(brotliDecompressSync(br.body)).equals(Buffer.from(plain.body))).toBe(true);
      const gz = await raw(path, "gzip, deflate");
      expect({ path, coding: gz.r.headers.get("content-encoding") }).toEqual({ path, coding: "gzip" });
      expect(Buffer.from(gunzipSync(gz.body)).equals(Buffer.from(plain.body))).toBe(true);
      // Refused by q=0: the other one.
      expect((await raw(path, "br;q=0, gzip")).r.headers.get("content-encoding")).toBe("gzip");
      // Each form its own ETag, and a revalidation of the one held answers 304.
      const tags = [plain, br, gz].map((x) => x.r.headers.get("etag"));
      expect(new Set(tags).size).toBe(3);
      expect((await raw(path, "br, gzip", { headers: { "If-None-Match": tags[1]! } })).r.status).toBe(304);
      // A compressed copy is much smaller: these files are text.
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      console.log(`${path}: ${plain.body.length} bytes, br ${br.body.length}, gzip ${gz.body.length}`);
    }
  });

  test("HEAD names the coding and length of what GET would send, with no body", async () => {
    const get = await raw("/timezones/", "br");
    const head = await raw("/timezones/", "br", { method: "HEAD" });
    expect(head.r.headers.get("content-encoding")).toBe("br");
    expect(head.body.length).toBe(0);
    expect(head.r.headers.get("etag")).toBe(get.r.headers.get("etag"));
  });

  test("the copies are not served at paths of their own; every compressible page has both", async () => {
    expect((await raw("/timezones/index.html.br", "identity")).r.status).toBe(404);
    const missing: string[] = [];
    for (const entry of readdirSync(join(siteDir, "guides"), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const name = entry.name;
      const files = readdirSync(join(siteDir, "guides", name));
      if (files.includes("index.html") && !(files.includes("index.html.br") && files.includes("index.html.gz"))) missing.push(name);
    }
    expect(missing).toEqual([]);
  });

  test("/favicon.ico: a 32x32 icon, cached a day", async () => {
    const { r, body } = await raw("/favicon.ico", "identity");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/x-icon");
    expect(r.headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=86400, stale-while-revalidate=86400");
    const view = new DataView(body.buffer);
    // ICONDIR: reserved 0, type 1 (icon), one image of 32x32 at 32 bits per pixel.
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 1]);
    expect([body[6], body[7], view.getUint16(12, true)]).toEqual([32, 32, 32]);
    expect(view.getUint32(14, true) + view.getUint32(18, true)).toBe(body.length);
    // Drawn: some pixels opaque, some clear (the alpha of each BGRA pixel).
    const alphas = new Set<number>();
    for (let i = 22 + 40 + 3; i < 22 + 40 + 32 * 32 * 4; i += 4) alphas.add(body[i]!);
    expect(alphas.has(0) && alphas.has(255)).toBe(true);
  });
});

describe("a copy that is not its file", () => {
  test("is left out: a page edited after the build goes out as edited, to every client", () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-stale-copy-"));
    const built = "<!doctype html><title>built</title>" + "x".repeat(2000);
    writeFileSync(join(dir, "index.html"), built.replace("built", "edited"));
    writeFileSync(join(dir, "index.html.br"), brotliCompressSync(built));
    writeFileSync(join(dir, "index.html.gz"), "not gzip at all");
    writeFileSync(join(dir, "app.js"), built);
    writeFileSync(join(dir, "app.js.gz"), gzipSync(built));
    const site = StaticSite.load(dir)!;
    expect(Object.keys(site.lookup("/")!.encoded)).toEqual([]);
    expect(Object.keys(site.lookup("/app.js")!.encoded)).toEqual(["gzip"]);
    expect(site.lookup("/index.html.br")).toBeUndefined();
  });
});

describe("chooseSiteEncoding", () => {
  const both = ["br", "gzip"] as const;
  test("by q-value, br on a tie, * for codings not named, q=0 refused", () => {
    expect(chooseSiteEncoding("gzip, deflate, br", both)).toBe("br");
    expect(chooseSiteEncoding("br;q=0.5, gzip", both)).toBe("gzip");
    expect(chooseSiteEncoding("gzip;q=0, br;q=0", both)).toBeNull();
    expect(chooseSiteEncoding("*", both)).toBe("br");
    expect(chooseSiteEncoding("br;q=0, *", both)).toBe("gzip");
    expect(chooseSiteEncoding("identity", both)).toBeNull();
    expect(chooseSiteEncoding("x-gzip", both)).toBe("gzip");
    expect(chooseSiteEncoding(null, both)).toBeNull();
    expect(chooseSiteEncoding("br", ["gzip"])).toBeNull();
    expect(chooseSiteEncoding("BR;Q=1", both)).toBe("br");
  });
});
