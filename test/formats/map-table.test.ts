// mapTable: the file is mapped read-only (PROT_READ, as /proc/self/maps shows it), its bytes
// are the file's, and a mapping no longer referenced is given back (munmap when the
// ArrayBuffer is collected), so reloads do not pile up mappings.

import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mapTable } from "../../server/formats/map-table.ts";

const mappingsOf = (path: string) => readFileSync("/proc/self/maps", "utf8").split("\n").filter((l) => l.endsWith(` ${path}`));

function tableFile(bytes: number): string {
  const path = join(mkdtempSync(join(tmpdir(), "zonetime-map-")), "table.bin");
  const content = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) content[i] = (i * 7919) & 0xff;
  writeFileSync(path, content);
  return path;
}

test("the file's bytes, mapped PROT_READ and private (r--p), never writable", () => {
  const path = tableFile(3 * 4096 + 5);
  const buffer = mapTable(path);
  expect(new Uint8Array(buffer)).toEqual(new Uint8Array(readFileSync(path)));
  const lines = mappingsOf(path);
  expect(lines.length).toBe(1);
  expect(lines[0]!.split(/\s+/)[1]).toBe("r--p");
});

test("a mapping no longer referenced is unmapped when collected", () => {
  const path = tableFile(64 * 1024);
  const map = () => {
    let sum = 0;
    for (let i = 0; i < 50; i++) sum += new Uint8Array(mapTable(path))[1]!;
    return sum;
  };
  expect(map()).toBe(50 * readFileSync(path)[1]!);
  expect(mappingsOf(path).length).toBeGreaterThan(0);
  for (let i = 0; i < 5 && mappingsOf(path).length > 2; i++) Bun.gc(true);
  // The stack is scanned conservatively: one or two may survive a collection, never the fifty.
  expect(mappingsOf(path).length).toBeLessThanOrEqual(2);
});

test("an empty file is an empty buffer (the reader then says truncated); a missing one is named", () => {
  const path = tableFile(0);
  expect(mapTable(path).byteLength).toBe(0);
  expect(() => mapTable(`${path}.absent`)).toThrow(`${path}.absent: missing: run \`bun run build\``);
});
