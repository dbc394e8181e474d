// The processes the service and the build start run on the Bun that runs them
// (process.execPath), not whatever `bun` PATH finds first: a container or a service
// manager often has no `bun` on PATH at all, or an older one.

import { expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { startServerProcess } from "../support/server-process.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

/** A PATH with nothing on it. */
const EMPTY_PATH = mkdtempSync(join(tmpdir(), "zonetime-empty-path-"));

test("the supervisor starts its workers with no bun on PATH", async () => {
  expect(Bun.which("bun", { PATH: EMPTY_PATH })).toBeNull();
  const service = await startServerProcess({ PATH: EMPTY_PATH, WORKERS: "2", PORT: String(await freePort()) }, 2);
  try {
    expect(service.log.filter((l) => l.includes('"event":"worker_started"'))).toHaveLength(2);
    expect((await fetch(`${service.url}/timezone/UTC`)).status).toBe(200);
  } finally {
    await service.stop();
  }
}, 60_000);

test("the site builds with no bun on PATH", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "zonetime-site-no-path-")), "dist");
  const script = `const { buildSite } = await import(${JSON.stringify(join(ROOT, "scripts", "site", "build-site.ts"))});
    await buildSite(${JSON.stringify(await testDataDir())}, ${JSON.stringify(out)});`;
  const child = Bun.spawn([process.execPath, "-e", script], { env: { ...process.env, PATH: EMPTY_PATH }, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  expect(stderr).not.toContain("error");
  expect(code).toBe(0);
  expect(existsSync(join(out, "index.html"))).toBe(true);
}, 120_000);
