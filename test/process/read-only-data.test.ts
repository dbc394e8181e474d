// The service starts and answers every route where it may not write its tables: as an
// unprivileged user on root-owned 0644 tables (the Dockerfile's `USER bun`, Kubernetes'
// runAsUser), and as root on a read-only filesystem (readOnlyRootFilesystem, a read-only
// volume). Tables are opened O_RDONLY and mapped PROT_READ (formats/map-table.ts); Bun.mmap
// opened them O_RDWR, so both cases failed to start (EACCES, EROFS).
//
// Needs root: switching to nobody (setpriv) and mounting the read-only tmpfs. CI runs as
// root. As another user the first case runs with tables of the user's own that it may not
// write (0444: no O_RDWR either); the read-only mount is skipped, saying so.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { asNobody, isRoot, NOBODY, readableDataCopy, readableServerCopy, readOnlyMount } from "../support/restricted-data.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { testDataDir, testHandler } from "../support/test-server.ts";

const AT = "at=2026-07-01T12:00:00Z";
/** One request per route row (server/http/routing/route-table.ts), each table read at least once. */
const PATHS = [
  "/timezone",
  "/timezone/America",
  `/timezone/Europe/London?${AT}`,
  `/timezone/Europe/London.txt?${AT}`,
  "/timezone/America/New_York/transitions?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z",
  `/timezone/Australia/Sydney/info?${AT}`,
  "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London&disambiguation=earlier",
  `/ip/8.8.8.8?${AT}`,
  `/ip/2001:4860:4860::8888?${AT}`,
  `/coordinates/52.52,13.405?${AT}`,
  `/coordinates/-33.87,151.21?${AT}`,
  "/api",
  "/api/timezone/Asia/Tokyo",
  "/api/ip/1.1.1.1",
  "/openapi.json",
  "/health",
  "/health/live",
  "/health/ready",
  "/metrics",
];
/** Answers that depend on the clock or the process: only the status is compared. */
const VARYING = new Set(["/api/timezone/Asia/Tokyo", "/api/ip/1.1.1.1", "/health", "/metrics"]);

let reference: (req: Request) => Response;
beforeAll(async () => {
  reference = await testHandler();
}, 300_000);

const withoutClient = (body: string) => body.replace(/"client_ip":("[^"]*"|null)/g, '"client_ip":-').replace(/\nclient_ip: .*/g, "");

/** Every path answers as the in-process reference on the same data does. */
async function expectEveryRoute(service: ServerProcess): Promise<void> {
  for (const path of PATHS) {
    const answer = await fetch(service.url + path);
    const expected = reference(new Request(`http://127.0.0.1${path}`));
    const body = await answer.text();
    expect({ path, status: answer.status }).toEqual({ path, status: expected.status });
    expect(answer.status).toBeLessThan(300);
    if (!VARYING.has(path)) expect({ path, body: withoutClient(body) }).toEqual({ path, body: withoutClient(await expected.text()) });
  }
}

const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops.splice(0)) stop();
});

describe("tables the service may not write", () => {
  test(isRoot() ? "as nobody, root-owned 0644 tables, WORKERS=2: starts and serves every route (root: setpriv)"
    : "tables of its own at 0444, WORKERS=2: starts and serves every route (not root: no setpriv)", async () => {
    const data = readableDataCopy(await testDataDir());
    let command: string[] | undefined;
    if (isRoot()) {
      for (const name of readdirSync(data)) chownSync(join(data, name), 0, 0);
      for (const name of readdirSync(data)) {
        const stat = statSync(join(data, name));
        expect({ name, mode: stat.mode & 0o777 }).toEqual({ name, mode: stat.isDirectory() ? 0o755 : 0o644 });
      }
      const app = readableServerCopy();
      command = [...asNobody(), process.execPath, app.entry];
    } else {
      for (const name of readdirSync(data)) chmodSync(join(data, name), 0o444);
    }
    const service = await startServerProcess({ DATA_DIR: data, WORKERS: "2", SITE_DIR: join(data, "no-site") }, 2, command);
    stops.push(() => service.child.kill());
    if (isRoot()) {
      // The workers really run as nobody (their parent, the supervisor, too).
      const uid = Bun.spawnSync(["ps", "-o", "uid=", "--ppid", String(service.child.pid)]).stdout.toString().trim().split(/\s+/);
      expect(uid.length).toBe(2);
      expect(uid.map(Number)).toEqual([NOBODY, NOBODY]);
    }
    await expectEveryRoute(service);
  }, 120_000);
});

describe("a read-only data folder", () => {
  test.skipIf(!isRoot())("root, tables on a tmpfs remounted read-only: starts and serves every route (needs root: mount)", async () => {
    const source = await testDataDir();
    // cp -a: the data folder as the build left it (its layout and links), as an image or a volume holds it.
    const mount = readOnlyMount(96, (dir) => expect(Bun.spawnSync(["cp", "-a", `${source}/.`, dir]).exitCode).toBe(0));
    stops.push(mount.unmount);
    const service = await startServerProcess({ DATA_DIR: mount.dir, WORKERS: "1", SITE_DIR: join(mount.dir, "no-site") });
    stops.push(() => service.child.kill());
    await expectEveryRoute(service);
  }, 120_000);
  if (!isRoot()) console.warn("read-only data folder test skipped: mounting a read-only tmpfs needs root (CI runs as root)");
});
