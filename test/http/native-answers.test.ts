// Constant answers that Bun sends natively (server/http/bun/native-answers.ts): the same bytes
// and headers the fetch handler gives, 304 for the ETag, only where no query changes the
// answer, taken away while draining, made again on reload, and not at all when a rate
// limit or the access log needs to see every request. The site's files stay with the handler.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type Service } from "../../server/process/service.ts";
import { constantPaths } from "../../server/http/bun/native-answers.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { loadData } from "../../server/process/load-data.ts";
import { testConfig, testDataDir, testSiteDir } from "../support/test-server.ts";

const withoutDate = (r: Response) => [...r.headers].filter(([k]) => k !== "date").sort();

/** Requests per route label that /metrics counted: natively sent answers are not among them. */
async function counted(url: string, route: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return [...text.matchAll(new RegExp(`^zonetime_requests_total\\{route="${route}",status="200"\\} (\\d+)$`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);
}

describe("without a rate limit: sent by Bun", () => {
  let service: Service;
  let url: string;
  beforeAll(async () => {
    service = await startServer(await testConfig({ RATE_LIMIT: "off", SITE_DIR: await testSiteDir(), DRAIN_GRACE_MS: "1500", DRAIN_SECONDS: "3" }), { sharePort: false });
    url = `http://127.0.0.1:${service.server.port}`;
  }, 120_000);
  afterAll(() => service?.server.stop(true));

  test("every constant path: the handler's own bytes and headers, HEAD alike, 304 for its ETag", async () => {
    const paths = constantPaths(service.state);
    expect(paths).toContain("/openapi.json");
    expect(paths).toContain("/api/timezone/Europe.txt");
    expect(paths).not.toContain("/docs/"); // the site's files: one copy of each, the handler's
    expect(paths).not.toContain("/timezone"); // the spec list answers ?q= and ?country=
    const inProcess = createFetchHandler(service.state, { counted: false });
    for (const path of paths) {
      const native = await fetch(`${url}${path}`);
      const made = (await inProcess(new Request(`${url}${path}`), null)) as Response;
      expect({ path, body: Buffer.from(await native.arrayBuffer()).equals(Buffer.from(await made.arrayBuffer())) }).toEqual({ path, body: true });
      // The same request with a header Bun's static route does not look at, made by the handler in JS:
      // HEAD goes through the handler; its headers must be GET's.
      const head = await fetch(`${url}${path}`, { method: "HEAD" });
      expect({ path, status: head.status }).toEqual({ path, status: native.status });
      expect({ path, headers: withoutDate(head) }).toEqual({ path, headers: withoutDate(native) });
      const etag = native.headers.get("etag");
      expect({ path, etag: etag !== null }).toEqual({ path, etag: true });
      const again = await fetch(`${url}${path}`, { headers: { "If-None-Match": etag! } });
      expect({ path, status: again.status }).toEqual({ path, status: 304 });
    }
  }, 120_000);

  test("natively sent: not counted in /metrics; a query never changes what a constant path answers", async () => {
    const before = await counted(url, "timezone_list");
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}/api/timezone`)).status).toBe(200);
    expect(await counted(url, "timezone_list")).toBe(before);
    const list = await (await fetch(`${url}/api/timezone`)).text();
    expect(await (await fetch(`${url}/api/timezone?callback=x&q=ist`)).text()).toBe(list);
    // The spec list keeps its query: ?q= is a search, not the list.
    expect(await (await fetch(`${url}/timezone?q=ist`)).json()).toContain("Asia/Kolkata");
    expect(((await (await fetch(`${url}/timezone?q=ist`)).json()) as string[]).length).toBeLessThan(10);
  });

  test("a reload (SIGHUP) makes the native answers again from the new tables", async () => {
    const before = await fetch(`${url}/api/timezone`);
    // A new data version (another build time in the manifest) gives every answer a new ETag.
    const dataDir = await testDataDir();
    expect(await service.reload(async () => {
      const tables = await loadData(dataDir);
      return { ...tables, manifest: { ...tables.manifest!, builtAt: "2099-01-01T00:00:00.000Z" } };
    })).toBe(true);
    const after = await fetch(`${url}/api/timezone`);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe(await before.text());
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    const made = (await createFetchHandler(service.state, { counted: false })(new Request(`${url}/api/timezone`), null)) as Response;
    expect(after.headers.get("etag")).toBe(made.headers.get("etag"));
  });

  test("while draining, a constant answer goes through the handler and says Connection: close", async () => {
    const drained = service.drain();
    await Bun.sleep(200); // inside DRAIN_GRACE_MS: still listening
    const r = await fetch(`${url}/openapi.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get("connection")).toBe("close");
    await drained;
  }, 30_000);
});

describe("with a rate limit: every answer through the handler", () => {
  let service: Service;
  let url: string;
  beforeAll(async () => {
    service = await startServer(await testConfig({ RATE_LIMIT: "100/60s" }), { sharePort: false });
    url = `http://127.0.0.1:${service.server.port}`;
  }, 60_000);
  afterAll(() => service?.server.stop(true));

  test("a constant answer is counted in /metrics", async () => {
    const before = await counted(url, "timezone_list");
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/timezone`)).status).toBe(200);
    expect(await counted(url, "timezone_list")).toBe(before + 3);
  });
});
