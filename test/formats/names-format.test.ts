// names.bin's reader refuses a damaged file with a message that names it, and reads back
// what the writer wrote.

import { expect, test } from "bun:test";
import { encodeKeyBlocks } from "../../server/formats/key-blocks.ts";
import { decodeNames, encodeNames, NamesSection, SECTION_COUNT, SLOT_BLOCK } from "../../server/formats/names-format.ts";
import { NamesTable } from "../../server/names/names-table.ts";

function sample(): Uint8Array {
  const sections: Int32Array[] = Array.from({ length: SECTION_COUNT }, () => new Int32Array(0));
  // One locale of 20 slots (two blocks): slot 0 names "de", slot 17 "Berlin"; one search key "berlin" -> "Europe/Berlin".
  sections[NamesSection.Meta] = Int32Array.from([1, 20, 0, 0, 0, 0, 2, 1]);
  sections[NamesSection.LocaleTags] = Int32Array.from([1]);
  const blocks = new Int32Array(2 * SLOT_BLOCK);
  blocks[0] = 1;
  blocks[SLOT_BLOCK + 1] = 3;
  sections[NamesSection.SlotBlocks] = blocks;
  const keys = encodeKeyBlocks([new TextEncoder().encode("berlin")], [1]);
  sections[NamesSection.SearchBlockStarts] = new Int32Array(keys.blockStarts.buffer);
  sections[NamesSection.SearchBlockEntries] = new Int32Array(keys.blockEntries.buffer);
  sections[NamesSection.SearchResults] = Int32Array.from([4]);
  return encodeNames({
    sections, strings: ["", "de", JSON.stringify({ cldrVersion: "48.0.0", scripts: {} }), "Berlin", "Europe/Berlin"],
    searchKeyBytes: keys.bytes, slotIndex: Uint16Array.from([0, 1]),
  });
}

test("round trip", () => {
  const bytes = sample();
  const table = NamesTable.fromBuffer(bytes.buffer as ArrayBuffer, "names.bin");
  expect(table.cldrVersion).toBe("48.0.0");
  const de = table.locale("DE")!;
  expect(de.tag).toBe("de");
  expect(Array.from({ length: 20 }, (_, slot) => table.string(table.slot(de, slot)))).toEqual(["de", ...Array(16).fill(""), "Berlin", "", ""]);
  expect(table.searchIndex.find(new TextEncoder().encode("berl"), 4)).toBe(true);
  expect(table.string(table.data.sections[NamesSection.SearchResults]![table.searchIndex.loEntry]!)).toBe("Europe/Berlin");
});

test.each([
  ["truncated", (b: Uint8Array) => b.slice(0, b.length - 1), /length mismatch/],
  ["bad magic", (b: Uint8Array) => ((b[0] = 0), b), /bad magic/],
  ["another major version", (b: Uint8Array) => ((b[8] = 9), b), /major version 9/],
  ["a section pointing elsewhere", (b: Uint8Array) => (new DataView(b.buffer).setUint32(64, 12, true), b), /section 0 lies outside/],
  ["a 1.x file (a u32 per slot, the keys as strings)", (b: Uint8Array) => ((b[8] = 1), b), /major version 1 is not supported \(this build reads 2\)/],
  ["a slot index entry past the blocks", (b: Uint8Array) => ((b[b.length - 2] = 7), b), /slot index entry 1 names a block that does not exist/],
  ["a damaged search key", (b: Uint8Array) => {
    // The key's record (shared 0, 128 + rest 6: one entry, "berlin"): its shared length made non-zero.
    const keysAt = Buffer.from(b).indexOf(Buffer.from("\x00\x86berlin", "latin1"));
    expect(keysAt).toBeGreaterThan(0);
    b[keysAt] = 3;
    return b;
  }, /search keys: key 0 is malformed/],
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
