// Loading generated/: every table is checked against the sha256 and length manifest.json
// records before anything is taken, so a corrupted table, or one from another build than
// the manifest, is refused with a message that names the file; a manifest that is not
// the build's shape (null, garbage, a path for a file name) is refused too.

import { beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadData } from "../../server/process/load-data.ts";
import { testDataDir } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";
import { flatDataCopy } from "../support/data-copy.ts";

let good: string;
beforeAll(async () => {
  good = await testDataDir();
}, 120_000);

/** A copy of the test data with `change` applied to it. */
function copyWith(change: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-load-"));
  flatDataCopy(good, dir); // a flat copy of its own: the test changes its files
  change(dir);
  return dir;
}

function flipBytes(file: string, count: number, seed: number): void {
  const bytes = readFileSync(file);
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31; // a fixed sequence of positions past the header
    const at = 64 + (x % (bytes.length - 64));
    bytes[at] = bytes[at]! ^ 0xff;
  }
  writeFileSync(file, bytes);
}

function zeroTail(file: string, fraction: number): void {
  const bytes = readFileSync(file);
  bytes.fill(0, bytes.length - Math.ceil(bytes.length * fraction));
  writeFileSync(file, bytes);
}

const editManifest = (dir: string, edit: (m: any) => unknown) =>
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(edit(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")))));

test("the build's own data loads", async () => {
  const data = await loadData(good);
  expect(data.zones.tzdbVersion).toBe(sourceRelease());
  expect(data.ip.rangeCounts.v4).toBeGreaterThan(500_000);
});

test.each([
  ["zones.bin", "64 flipped bytes", (f: string) => flipBytes(f, 64, 1)],
  ["zones.bin", "its last 1% zeroed", (f: string) => zeroTail(f, 0.01)],
  ["ip4.bin", "64 flipped bytes", (f: string) => flipBytes(f, 64, 2)],
  ["ip6.bin", "its last 1% zeroed", (f: string) => zeroTail(f, 0.01)],
  ["ip6.bin", "one flipped byte", (f: string) => flipBytes(f, 1, 3)],
  ["geo.bin", "64 flipped bytes", (f: string) => flipBytes(f, 64, 4)],
])("%s with %s (same length) is refused, naming the file and its checksum", async (name, _what, corrupt) => {
  const dir = copyWith((d) => corrupt(join(d, name)));
  await expect(loadData(dir)).rejects.toThrow(`${join(dir, name)}: sha256`);
});

test("a table from another build than the manifest is refused (the set is taken whole or not at all)", async () => {
  const dir = copyWith((d) => editManifest(d, (m) => ({ ...m, ip: { ...m.ip, files: m.ip.files.map((f: any) => f.name === "ip4.bin" ? { ...f, sha256: "0".repeat(64) } : f) } })));
  await expect(loadData(dir)).rejects.toThrow(`${join(dir, "ip4.bin")}: sha256`);
});

test.each([
  ["null", "null"],
  ["not JSON", '{"manifestVersion":1,'],
  ["an array", "[]"],
  ["no tzdb", JSON.stringify({ manifestVersion: 1, builtAt: "x", ip: {} })],
])("a manifest that is %s is refused, naming the file", async (_what, text) => {
  const dir = copyWith((d) => writeFileSync(join(d, "manifest.json"), text));
  await expect(loadData(dir)).rejects.toThrow(join(dir, "manifest.json"));
});

test("a manifest whose table is a path, or whose checksum is not a sha256, is refused", async () => {
  const path = copyWith((d) => editManifest(d, (m) => ({ ...m, tzdb: { ...m.tzdb, file: "../zones.bin" } })));
  await expect(loadData(path)).rejects.toThrow(join(path, "manifest.json"));
  const checksum = copyWith((d) => editManifest(d, (m) => ({ ...m, tzdb: { ...m.tzdb, sha256: "abc" } })));
  await expect(loadData(checksum)).rejects.toThrow(join(checksum, "manifest.json"));
});

test("no manifest: refused (nothing to check the tables against)", async () => {
  const dir = copyWith((d) => rmSync(join(d, "manifest.json")));
  await expect(loadData(dir)).rejects.toThrow(join(dir, "manifest.json"));
});
