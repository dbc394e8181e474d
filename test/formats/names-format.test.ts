// names.bin's reader refuses a damaged file with a message that names it, and reads back
// what the writer wrote.

import { expect, test } from "bun:test";
import { decodeNames, encodeNames, NamesSection, SECTION_COUNT } from "../../server/formats/names-format.ts";
import { NamesTable } from "../../server/names/names-table.ts";

function sample(): Uint8Array {
  const sections = Array.from({ length: SECTION_COUNT }, () => new Int32Array(0));
  sections[NamesSection.Meta] = Int32Array.from([1, 2, 0, 0, 0, 0, 2]);
  sections[NamesSection.LocaleTags] = Int32Array.from([1]);
  sections[NamesSection.Slots] = Int32Array.from([1, 0]);
  return encodeNames({ sections, strings: ["", "de", JSON.stringify({ cldrVersion: "48.0.0", scripts: {} })] });
}

test("round trip", () => {
  const bytes = sample();
  const table = NamesTable.fromBuffer(bytes.buffer as ArrayBuffer, "names.bin");
  expect(table.cldrVersion).toBe("48.0.0");
  expect(table.locale("DE")?.tag).toBe("de");
});

test.each([
  ["truncated", (b: Uint8Array) => b.slice(0, b.length - 1), /length mismatch/],
  ["bad magic", (b: Uint8Array) => ((b[0] = 0), b), /bad magic/],
  ["another major version", (b: Uint8Array) => ((b[8] = 9), b), /major version 9/],
  ["a section pointing elsewhere", (b: Uint8Array) => (new DataView(b.buffer).setUint32(64, 12, true), b), /section 0 lies outside/],
  ["a string id past the strings", (b: Uint8Array) => {
    const view = new DataView(b.buffer);
    view.setInt32(view.getUint32(64 + 8, true), 99, true); // LocaleTags[0]
    return b;
  }, /names string 99/],
])("refuses %s", (_what, damage, message) => {
  const bytes = damage(sample());
  expect(() => decodeNames(bytes.buffer as ArrayBuffer, "generated/names.bin")).toThrow(message);
  expect(() => decodeNames(bytes.buffer as ArrayBuffer, "generated/names.bin")).toThrow(/generated\/names\.bin/);
});
