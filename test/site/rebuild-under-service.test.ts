// Rebuilding the website under a running service never breaks it: the service answers
// from the site it loaded into memory, the build writes a new folder and swaps it in
// whole, and SIGHUP takes the new site (its pages and their new assets together). The
// status /metrics counts is the status sent.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { buildSite } from "../../scripts/site/build-site.ts";
import { freePort } from "../support/free-port.ts";
import { startServerProcess, waitForLog, type ServerProcess } from "../support/server-process.ts";
import { testDataDir, testSiteDir } from "../support/test-server.ts";

let siteDir: string;
let service: ServerProcess;
beforeAll(async () => {
  // A copy of the test site: this file rebuilds and replaces it.
  siteDir = join(mkdtempSync(join(tmpdir(), "zonetime-rebuild-")), "dist");
  cpSync(await testSiteDir(), siteDir, { recursive: true });
  service = await startServerProcess({ SITE_DIR: siteDir, PORT: String(await freePort()), RATE_LIMIT: "off", DRAIN_GRACE_MS: "0" });
}, 180_000);
afterAll(() => service?.stop());

/** The /_astro/ assets a page links to. */
const assetsOf = (html: string) => [...new Set([...html.matchAll(/\/_astro\/[A-Za-z0-9._-]+/g)].map((m) => m[0]))];

async function siteCounts(): Promise<Map<string, number>> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return new Map([...text.matchAll(/^zonetime_requests_total\{route="site",status="(\d+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

test("probes while `buildSite` rebuilds the served folder: no 5xx, and /metrics counts the statuses sent", async () => {
  const home = await (await fetch(`${service.url}/`)).text();
  const paths = ["/", "/docs/", ...assetsOf(home)];
  expect(paths.length).toBeGreaterThan(2);
  const before = await siteCounts();
  const statuses: number[] = [];
  let building = true;
  const probing = (async () => {
    while (building) {
      for (const path of paths) statuses.push((await fetch(`${service.url}${path}`)).status);
      await Bun.sleep(20);
    }
  })();
  try {
    await buildSite(await testDataDir(), siteDir);
  } finally {
    building = false;
    await probing;
  }
  const after = await siteCounts();
  const sent = new Map<string, number>();
  for (const s of statuses) sent.set(String(s), (sent.get(String(s)) ?? 0) + 1);
  console.log(`site rebuild under probes: ${statuses.length} probes, statuses ${JSON.stringify(Object.fromEntries(sent))}`);
  const counted = Object.fromEntries([...sent.keys()].map((status) => [status, (after.get(status) ?? 0) - (before.get(status) ?? 0)]));
  expect(counted).toEqual(Object.fromEntries(sent));
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  // The build leaves nothing beside the folder it replaced.
  expect(readdirSync(dirname(siteDir))).toEqual([basename(siteDir)]);
}, 180_000);

test("a new site swapped in whole: the old one serves, pages and assets, until SIGHUP; then the new pages and their new assets", async () => {
  const oldHome = await (await fetch(`${service.url}/`)).text();
  const [oldAsset] = assetsOf(oldHome).filter((a) => a.endsWith(".css"));
  expect(oldAsset).toBeDefined();
  // The next generation, as a build publishes it: every page now links a renamed stylesheet.
  const next = `${siteDir}.next`;
  cpSync(siteDir, next, { recursive: true });
  const newAsset = oldAsset!.replace(/\.css$/, ".next.css");
  renameSync(join(next, oldAsset!), join(next, newAsset));
  const rewrite = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) rewrite(path);
      else if (entry.name.endsWith(".html")) writeFileSync(path, readFileSync(path, "utf8").replaceAll(oldAsset!, newAsset));
    }
  };
  rewrite(next);
  renameSync(siteDir, `${siteDir}.old`);
  renameSync(next, siteDir);
  rmSync(`${siteDir}.old`, { recursive: true });

  // Before SIGHUP: the generation loaded, consistent.
  expect(await (await fetch(`${service.url}/`)).text()).toContain(oldAsset!);
  expect((await fetch(`${service.url}${oldAsset}`)).status).toBe(200);

  const reloads = service.log.filter((l) => l.includes('"event":"reloaded"')).length;
  service.child.kill("SIGHUP");
  await waitForLog(service.log, '"event":"reloaded"', { count: reloads + 1, timeoutMs: 10_000 });
  const newHome = await (await fetch(`${service.url}/`)).text();
  expect(newHome).toContain(newAsset);
  expect(newHome).not.toContain(oldAsset!);
  const css = await fetch(`${service.url}${newAsset}`);
  expect(css.status).toBe(200);
  expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  for (const page of ["/", "/docs/", "/no/such/page"]) expect((await fetch(`${service.url}${page}`)).status).toBeLessThan(500);
}, 60_000);
