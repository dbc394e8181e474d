// zones.bin is refused, with a message naming the file, when it is not what the reader
// expects: truncated, corrupted, or from an unknown major format version.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TableFormatError } from "../../server/core/errors.ts";
import { decodeZones } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { PINNED_BUILT_AT, PINNED_RELEASE, pinnedZonesFile } from "../support/pinned-tzdb.ts";

// Built from the pinned release, so the metadata below is that release's whatever data/tzdb holds.
const good = new Uint8Array(await Bun.file(await pinnedZonesFile()).arrayBuffer());
const copy = () => good.slice();
const refusal = (bytes: Uint8Array) => {
  try {
    decodeZones(bytes.buffer as ArrayBuffer, "/srv/generated/zones.bin");
  } catch (error) {
    expect(error).toBeInstanceOf(TableFormatError);
    return (error as Error).message;
  }
  throw new Error("the reader accepted a bad file");
};

describe("zones.bin validation", () => {
  test("a good file round-trips its metadata", () => {
    const data = decodeZones(copy().buffer as ArrayBuffer, "zones.bin");
    expect(data.tzdbVersion).toBe(PINNED_RELEASE);
    expect(data.formatMajor).toBe(1);
    expect(data.builtAt).toBe(PINNED_BUILT_AT);
  });

  test("an image embedded at an offset (tzdb-history.bin's) is read in place, its length the declared one", () => {
    const outer = new Uint8Array(64 + good.length + 24);
    outer.set(good, 64);
    const data = decodeZones(outer.buffer, "history (zones)", 64, good.length);
    const alone = decodeZones(copy().buffer as ArrayBuffer, "zones.bin");
    expect(data.times.buffer).toBe(outer.buffer); // views of the outer buffer, no copy
    expect(Array.from(data.times)).toEqual(Array.from(alone.times));
    expect(data.strings).toEqual(alone.strings);
    expect(Array.from(data.names)).toEqual(Array.from(alone.names));
    expect(() => decodeZones(outer.buffer, "history (zones)", 64, good.length + 8)).toThrow("history (zones): length mismatch");
  });

  test("truncated", () => {
    expect(refusal(good.slice(0, good.length - 100))).toMatch(/^\/srv\/generated\/zones\.bin: length mismatch: the header declares \d+ bytes but the file has \d+/);
    expect(refusal(good.slice(0, 20))).toBe("/srv/generated/zones.bin: truncated: 20 bytes is shorter than the 64-byte header");
    expect(refusal(new Uint8Array(0))).toContain("truncated");
  });

  test("bad magic", () => {
    const bytes = copy();
    bytes[0] = 0x7f;
    expect(refusal(bytes)).toBe("/srv/generated/zones.bin: not a zonetime zone table (bad magic bytes)");
  });

  test("an unknown major version", () => {
    const bytes = copy();
    new DataView(bytes.buffer).setUint16(8, 2, true);
    expect(refusal(bytes)).toContain("format major version 2 is not supported (this build reads 1)");
  });

  test("a newer minor version is read", () => {
    const bytes = copy();
    new DataView(bytes.buffer).setUint16(10, 7, true);
    expect(decodeZones(bytes.buffer as ArrayBuffer, "zones.bin").formatMinor).toBe(7);
  });

  test("a count that no longer matches the length", () => {
    const bytes = copy();
    const view = new DataView(bytes.buffer);
    view.setUint32(24, view.getUint32(24, true) + 1, true); // transitionCount
    expect(refusal(bytes)).toContain("length mismatch");
  });

  test("an index pointing outside its section", () => {
    const bytes = copy();
    const view = new DataView(bytes.buffer);
    const transitions = view.getUint32(24, true);
    // The first zone record follows the transition times: point its initial type far away.
    view.setInt32(64 + 8 * transitions + 8, 1_000_000, true);
    expect(refusal(bytes)).toBe("/srv/generated/zones.bin: zone 0: initial type out of range");
  });

  test("its last 1% zeroed: the device footer checks there (minor 2) no longer hold from their TZ strings' start", () => {
    const bytes = copy();
    bytes.fill(0, bytes.length - Math.ceil(bytes.length / 100));
    expect(refusal(bytes)).toMatch(/^\/srv\/generated\/zones\.bin: zone \d+: device footer check is not its TZ string's start$/);
  });

  test("zone facts zeroed (minor 1): no longer look like facts", () => {
    const bytes = copy();
    const data = decodeZones(copy().buffer as ArrayBuffer, "zones.bin");
    // The facts end where the checks' padding begins: zero the last 1% of the facts.
    const factsEnd = data.facts.byteOffset + data.facts.byteLength;
    bytes.fill(0, factsEnd - Math.ceil(data.facts.byteLength / 100), factsEnd);
    expect(refusal(bytes)).toMatch(/^\/srv\/generated\/zones\.bin: name \d+: facts are not countries and coordinates$/);
  });

  test("zeroed strings: a name that is no longer a name is refused (it decodes as NULs)", () => {
    const bytes = copy();
    const name = new TextEncoder().encode("America/Argentina/Salta");
    let at = -1;
    for (let i = 0; at < 0 && i < bytes.length - name.length; i++) {
      if (name.every((b, j) => bytes[i + j] === b)) at = i;
    }
    expect(at).toBeGreaterThan(0);
    bytes.fill(0, at, at + name.length);
    expect(refusal(bytes)).toMatch(/^\/srv\/generated\/zones\.bin: string \d+ holds a NUL byte$/);
  });

  test("ZoneTable.load names the file it refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-bin-"));
    const file = join(dir, "zones.bin");
    writeFileSync(file, good.slice(0, 1000));
    expect(ZoneTable.load(file)).rejects.toThrow(`${file}: length mismatch`);
  });
});
