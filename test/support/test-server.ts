// A real build of the repository's data into a temporary directory (once per test run),
// and the real server started on it, listening on a free port of 127.0.0.1.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../../scripts/build.ts";
import { buildSite } from "../../scripts/site/build-site.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { realtimeClock, type Clock } from "../../server/core/clock.ts";
import { readConfig } from "../../server/process/config.ts";
import { loadData } from "../../server/process/load-data.ts";
import { startServer } from "../../server/process/service.ts";

export const ROOT = join(import.meta.dir, "..", "..");

let dataDir: Promise<string> | null = null;

/** generated/ for tests: built from data/tzdb and the embedded IP source, never the repo's own generated/. */
export function testDataDir(): Promise<string> {
  dataDir ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-test-data-"));
    await build({ tzdbDir: join(ROOT, "data", "tzdb"), outDir: dir });
    return dir;
  })();
  return dataDir;
}

/** The configuration a test server runs with: a free port on 127.0.0.1, the test data, `env` on top. */
export async function testConfig(env: Record<string, string> = {}) {
  // API only unless a test names a site (SITE_DIR): the repo's own site/dist may or may not be built.
  const noSite = join(tmpdir(), "zonetime-no-site");
  return readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: await testDataDir(), WORKERS: "1", SITE_DIR: noSite, ...env });
}

let siteDir: Promise<string> | null = null;

/** The website built from the test data into a temporary folder (once per test run). */
export function testSiteDir(): Promise<string> {
  siteDir ??= (async () => {
    const out = mkdtempSync(join(tmpdir(), "zonetime-test-site-"));
    await buildSite(await testDataDir(), out);
    return out;
  })();
  return siteDir;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<{ url: string; port: number; stop: () => void }> {
  // Never a shared port in tests: a port another process's server holds is then refused,
  // not shared (service.ts, claimPorts), and the kernel splits none of our connections with it.
  const { server } = await startServer(await testConfig(env), { sharePort: false });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port!, stop: () => server.stop(true) };
}

/** The fetch handler alone, for calling with `new Request(...)`; `clock` replaces the realtime clock. */
/**
 * The fetch handler on the test data. Its answers are made at once, but a POST's and those
 * of the rows that answer later (RouteRow.later): await those (testAnsweringHandler says
 * so in its type).
 */
export async function testHandler(clock: Clock = realtimeClock): Promise<(req: Request) => Response> {
  const handler = await testAnsweringHandler(clock);
  return (req) => handler(req) as Response;
}

/** The fetch handler on the test data, its answers awaited (a row marked `later` answers later). */
export async function testAnsweringHandler(clock: Clock = realtimeClock): Promise<(req: Request) => Response | Promise<Response>> {
  const state = createAppState(await loadData(await testDataDir()), clock, await testConfig());
  const handler = createFetchHandler(state);
  return (req) => handler(req, null);
}
