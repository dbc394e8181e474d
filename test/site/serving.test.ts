// The built site as the service serves it: content types, caching (hashed assets
// immutable, pages revalidated), the site's 404 page for unknown site paths while API
// paths keep the JSON error shape, and no path escaping the site's folder.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startServer, type Service } from "../../server/process/service.ts";
import { testConfig, testSiteDir } from "../support/test-server.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";

let service: Service;
let base: string;
let siteDir: string;
beforeAll(async () => {
  siteDir = await testSiteDir();
  service = await startServer(await testConfig({ SITE_DIR: siteDir }), { sharePort: false });
  base = `http://127.0.0.1:${service.server.port}`;
}, 120_000);
afterAll(() => service?.server.stop(true));

test("pages: HTML, revalidated after five minutes, with a content security policy", async () => {
  for (const path of ["/", "/docs/", "/docs", "/attribution/", "/guides/at/"]) {
    const r = await fetch(`${base}${path}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=300, stale-while-revalidate=300");
    expect(r.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await r.text()).toContain("<title>");
  }
});

test("hashed assets: immutable for a year, right content type", async () => {
  // The build's .br and .gz copies are sent in their file's place (precompressed.test.ts), not at paths of their own.
  const assets = readdirSync(join(siteDir, "_astro")).filter((name) => !/\.(br|gz)$/.test(name));
  expect(assets.length).toBeGreaterThan(0);
  for (const name of assets) {
    const r = await fetch(`${base}/_astro/${name}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, s-maxage=31536000, stale-while-revalidate=31536000, immutable");
    if (name.endsWith(".css")) expect(r.headers.get("content-type")).toBe("text/css; charset=utf-8");
  }
  const icon = await fetch(`${base}/favicon.svg`);
  expect(icon.headers.get("content-type")).toBe("image/svg+xml");
});

test("an unknown site path: the site's 404 page for a browser; an unknown API path: the JSON error", async () => {
  const page = await fetch(`${base}/no/such/page`, { headers: { Accept: "text/html,*/*;q=0.8" } });
  expect(page.status).toBe(404);
  expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(page.headers.get("cache-control")).toBe("no-store");
  expect(await page.text()).toContain("<h1>Not found</h1>");
  for (const path of ["/api/no/such", "/timezone/Nowhere"]) {
    const api = await fetch(`${base}${path}`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toBe("application/json; charset=utf-8");
  }
});

test("no request path reaches outside the site", async () => {
  for (const path of ["/../package.json", "/%2e%2e/package.json", "/_astro/../../package.json", "/..%2F..%2Fetc%2Fpasswd", "//etc/passwd"]) {
    const response = await rawRequest(service.server.port!, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect([400, 404]).toContain(statusOf(response));
    expect(response).not.toContain('"name": "zonetime"');
  }
});
