// generated/tzdb-history.bin 1.1 carries each release's .tab facts after the zone matrix.
// A 1.0 file (made before: the same sections without that one) still reads, its old
// releases then without countries; facts pointing outside their rows, or a file cut short,
// fail naming the file.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildHistory } from "../../scripts/tzdb/history/build-history.ts";
import { TableFormatError } from "../../server/core/errors.ts";
import { decodeHistory, encodeHistory, HISTORY_FILE } from "../../server/formats/history-format.ts";
import { TzdbHistory } from "../../server/tz/tzdb-history.ts";
import { REPO_TZDB_DIR } from "../support/history-table.ts";
import { testZoneTable } from "../support/zone-table.ts";

async function built(): Promise<ArrayBuffer> {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-history-format-"));
  await buildHistory(REPO_TZDB_DIR, dir, "2026-11-21T00:00:00Z");
  const bytes = readFileSync(join(dir, HISTORY_FILE));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The same file re-encoded with its parts changed. */
function reencoded(buffer: ArrayBuffer, change: (d: ReturnType<typeof decodeHistory>) => { factMatrix: Int32Array; sets: number }): Uint8Array {
  const data = decodeHistory(buffer, "built");
  // The header: u32 metaBytes at 16, zonesBytes at 20; the zones follow the meta, padded to 8.
  const view = new DataView(buffer);
  const zonesAt = Math.ceil((64 + view.getUint32(16, true)) / 8) * 8;
  const zonesBytes = view.getUint32(20, true);
  const { factMatrix, sets } = change(data);
  return encodeHistory({
    meta: { ...data.meta, facts: { ...data.meta.facts!, sets }, zoneTabs: data.meta.zoneTabs! },
    zones: new Uint8Array(buffer, zonesAt, zonesBytes),
    matrix: data.matrix,
    factMatrix,
  });
}

describe("tzdb-history.bin: the .tab facts section", () => {
  test("a 1.0 file (no facts section) reads; its old releases answer without countries", async () => {
    const buffer = await built();
    const current = decodeHistory(buffer, "built");
    expect(current.factMatrix.length).toBeGreaterThan(0);
    // 1.0 is 1.1 without the last section: no sets, minor 0.
    const old = reencoded(buffer, () => ({ factMatrix: new Int32Array(0), sets: 0 }));
    new DataView(old.buffer).setUint16(10, 0, true);
    const history = TzdbHistory.fromBuffer(old.buffer as ArrayBuffer, "old.bin", await testZoneTable());
    const older = history.releases[1]!.release;
    expect(history.table(older)!.resolve("Europe/Berlin")).not.toBeNull();
    expect(history.table(older)!.facts("Europe/Berlin")).toBeNull();
    // The same release from the 1.1 file has them.
    const now = TzdbHistory.fromBuffer(buffer, "built", await testZoneTable());
    expect(now.table(older)!.facts("Europe/Berlin")!.countries[0]!.code).toBe("DE");
  }, 120_000);

  test("a facts entry outside the rows, or a file cut short, fails naming the file", async () => {
    const buffer = await built();
    const bad = reencoded(buffer, (d) => {
      const m = Int32Array.from(d.factMatrix);
      m[m.length - 1] = d.meta.facts!.rows.length;
      return { factMatrix: m, sets: d.meta.facts!.sets };
    });
    expect(() => decodeHistory(bad.buffer as ArrayBuffer, "bad.bin")).toThrow(TableFormatError);
    expect(() => decodeHistory(bad.buffer as ArrayBuffer, "bad.bin")).toThrow(/bad\.bin.*out of range/);
    const cut = buffer.slice(0, buffer.byteLength - 4);
    expect(() => decodeHistory(cut, "cut.bin")).toThrow(/cut\.bin.*length mismatch/);
  }, 120_000);
});
