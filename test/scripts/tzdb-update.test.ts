// `bun run tzdb:update` with IANA's real 2026b release tarball (read from ../shared, never
// copied into the repo), from a path and from a URL on 127.0.0.1, and with broken inputs
// the test makes itself. Every run works on a copy of the pinned 2026f fixture (so what it
// replaces is known whatever data/tzdb holds), never on the repo's own data/tzdb.

import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { PINNED_RELEASE, PINNED_TZDB_DIR } from "../support/pinned-tzdb.ts";
import { sharedData } from "../support/shared-data.ts";
import { utc } from "../support/zone-table.ts";

const ROOT = join(import.meta.dir, "..", "..");
const TARBALL = sharedData(join("data", "iana-release-2026b", "tzdata2026b.tar.gz"), "the tzdb:update tests") ?? "";
const TARBALL_SHA256 = "114543d9f19a6bfeb5bca43686aea173d38755a3db1f2eec112647ae92c6f544";

function workspace(): { tzdbDir: string; outDir: string } {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-update-"));
  cpSync(PINNED_TZDB_DIR, join(dir, "tzdb"), { recursive: true });
  return { tzdbDir: join(dir, "tzdb"), outDir: join(dir, "generated") };
}

async function runUpdate(input: string, ws: { tzdbDir: string; outDir: string }) {
  const child = Bun.spawn(["bun", "scripts/tzdb-update.ts", input, "--tzdb-dir", ws.tzdbDir, "--out", ws.outDir], {
    cwd: ROOT, stdout: "pipe", stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = new Bun.CryptoHasher("sha256").update(readFileSync(join(dir, name))).digest("hex");
  return out;
}

/** What 2026b says at 2026-11-21T00:00Z for the four zones its SOURCE.md lists. */
async function expectAnswersOf2026b(outDir: string) {
  const table = await ZoneTable.load(join(outDir, "zones.bin"));
  expect(table.tzdbVersion).toBe("2026b");
  const at = utc("2026-11-21T00:00:00Z");
  const state = (name: string) => {
    const { type } = table.periodAt(table.resolve(name)!.zone, at);
    return `${type.utoff / 3600} ${type.abbr}`;
  };
  expect(state("America/Havana")).toBe("-5 CST");
  expect(state("America/Winnipeg")).toBe("-6 CST");
  expect(state("America/Edmonton")).toBe("-7 MST");
  expect(state("Africa/Casablanca")).toBe("1 +01");
}

let server: ReturnType<typeof Bun.serve> | null = null;
afterAll(() => server?.stop(true));

describe.skipIf(!TARBALL)("tzdb:update", () => {
  test("from a path: shows version, sha256 and what changes, replaces the source, rebuilds", async () => {
    const ws = workspace();
    const result = await runUpdate(TARBALL, ws);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("release 2026b (tarball)");
    expect(result.stdout).toContain(`sha256 ${TARBALL_SHA256}`);
    expect(result.stdout).toContain(`replacing ${PINNED_RELEASE} with 2026b`);
    expect(result.stdout).toContain("names added (0): none");
    for (const zone of ["America/Havana", "America/Winnipeg", "America/Edmonton", "Africa/Casablanca"]) {
      expect(result.stdout).toContain(`  ${zone}: at `);
    }
    expect(readFileSync(join(ws.tzdbDir, "VERSION"), "utf8")).toContain("release: 2026b");
    expect(readFileSync(join(ws.tzdbDir, "tzdata.zi"), "utf8")).toStartWith("# version 2026b\n");
    await expectAnswersOf2026b(ws.outDir);
  }, 120_000);

  test("from a URL served on 127.0.0.1", async () => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) => new URL(req.url).pathname === "/tzdata2026b.tar.gz" ? new Response(Bun.file(TARBALL)) : new Response("no", { status: 404 }),
    });
    const ws = workspace();
    const result = await runUpdate(`http://127.0.0.1:${server.port}/tzdata2026b.tar.gz`, ws);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`sha256 ${TARBALL_SHA256}`);
    await expectAnswersOf2026b(ws.outDir);

    const missing = workspace();
    const before = snapshot(missing.tzdbDir);
    const notFound = await runUpdate(`http://127.0.0.1:${server.port}/tzdata2099z.tar.gz`, missing);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toContain("data left unchanged: cannot download");
    expect(notFound.stderr).toContain("HTTP 404");
    expect(snapshot(missing.tzdbDir)).toEqual(before);
  }, 120_000);

  describe("a bad input leaves data/tzdb untouched and says why", () => {
    const scratch = mkdtempSync(join(tmpdir(), "zonetime-bad-"));
    const cases: [string, () => string, string][] = [
      ["a truncated tarball", () => {
        const bytes = readFileSync(TARBALL);
        const file = join(scratch, "truncated.tar.gz");
        writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.4)));
        return file;
      }, "unpacking"],
      ["a tarball that is not a tz release", () => {
        writeFileSync(join(scratch, "README"), "not tzdata\n");
        Bun.spawnSync(["tar", "-czf", "other.tar.gz", "README"], { cwd: scratch });
        return join(scratch, "other.tar.gz");
      }, "is not an IANA tzdata release tarball: it lacks version, Makefile"],
      ["a release whose northamerica has a malformed Rule line", () => {
        const dir = join(scratch, "release");
        Bun.spawnSync(["mkdir", "-p", dir]);
        Bun.spawnSync(["tar", "-xzf", TARBALL], { cwd: dir });
        const file = join(dir, "northamerica");
        writeFileSync(file, readFileSync(file, "utf8") + "\nRule\tBroken\t2027\tonly\t-\tSmarch\t1\t2:00\t1:00\tD\n");
        Bun.spawnSync(["tar", "-czf", join(scratch, "broken.tar.gz"), "."], { cwd: dir });
        return join(scratch, "broken.tar.gz");
      }, "invalid month name \"Smarch\""],
      ["a tzdata.zi with no version line", () => {
        const file = join(scratch, "tzdata.zi");
        writeFileSync(file, "Z Etc/UTC 0 - UTC\n");
        return file;
      }, "must name its release in a \"# version\" line"],
      ["a path that does not exist", () => join(scratch, "nothing-here.tar.gz"), "no such file"],
    ];
    for (const [what, make, reason] of cases) {
      test(what, async () => {
        const ws = workspace();
        const before = snapshot(ws.tzdbDir);
        const result = await runUpdate(make(), ws);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain("tzdb:update failed, data left unchanged:");
        expect(result.stderr).toContain(reason);
        expect(snapshot(ws.tzdbDir)).toEqual(before);
        expect(existsSync(join(ws.outDir, "zones.bin"))).toBe(false);
      }, 60_000);
    }
  });
});
