// generated/manifest.json has one schema (server/formats/manifest.ts): what the build
// writes passes it, and a file of another shape is refused with a message naming the file
// and the field, by the reader and by the server's data loading alike.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManifestError, parseManifest, readManifest } from "../../server/formats/manifest.ts";
import { loadData } from "../../server/process/load-data.ts";
import { testDataDir } from "../support/test-server.ts";
import { flatDataCopy } from "../support/data-copy.ts";

/** A copy of the test data with `manifest.json` replaced by `text`. */
async function dataWithManifest(text: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-manifest-"));
  flatDataCopy(await testDataDir(), dir); // a flat copy of its own: the test changes its files
  writeFileSync(join(dir, "manifest.json"), text);
  return dir;
}

describe("manifest schema", () => {
  test("the build's own manifest passes, typed", async () => {
    const manifest = await readManifest(await testDataDir());
    expect(manifest!.tzdb.names).toBeGreaterThan(0);
    expect(manifest!.ip.files.map((f) => f.name).sort()).toEqual(["ip4.bin", "ip6.bin"]);
  }, 120_000);

  test("null, an array, a missing or mistyped field: refused, naming the file and the field", () => {
    const notAManifest = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8")) as unknown;
    expect(() => parseManifest(null, "x/manifest.json")).toThrow("x/manifest.json: the manifest must be an object");
    expect(() => parseManifest([], "x/manifest.json")).toThrow("the manifest must be an object");
    expect(() => parseManifest(notAManifest, "x/manifest.json")).toThrow("x/manifest.json: manifestVersion must be a number");
  });

  test("a field deep inside is checked too", async () => {
    const manifest = JSON.parse(readFileSync(join(await testDataDir(), "manifest.json"), "utf8"));
    manifest.ip.files[1].bytes = "12";
    expect(() => parseManifest(manifest, "m.json")).toThrow("m.json: ip.files[1].bytes must be a number");
    manifest.ip.files[1].bytes = 12;
    manifest.manifestVersion = 2;
    expect(() => parseManifest(manifest, "m.json")).toThrow("m.json: unknown manifestVersion 2");
  }, 120_000);

  test("the server's loader refuses a manifest that is null or not JSON, naming the file", async () => {
    for (const text of ["null", "{not json"]) {
      const dir = await dataWithManifest(text);
      const error = await loadData(dir).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(ManifestError);
      expect((error as Error).message).toStartWith(join(dir, "manifest.json"));
    }
  }, 120_000);
});
