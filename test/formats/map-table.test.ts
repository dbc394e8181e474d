// mapTable: the file is opened read-only and its bytes served from a sealed memory copy
// mapped PROT_READ (r--s over /memfd:zonetime:NAME in /proc/self/maps), so truncating or
// overwriting the file afterwards changes nothing loaded and faults nothing (a mapping of
// the file itself dies of SIGBUS when the file shrinks); a mapping no longer referenced is
// given back (munmap when the ArrayBuffer is collected), so reloads do not pile them up.

import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { mapTable } from "../../server/formats/map-table.ts";

const mappingsOf = (path: string) =>
  readFileSync("/proc/self/maps", "utf8").split("\n").filter((l) => l.includes(`/memfd:zonetime:${basename(path)} `) || l.endsWith(` ${path}`));

function tableFile(bytes: number): { path: string; content: Uint8Array<ArrayBuffer> } {
  const path = join(mkdtempSync(join(tmpdir(), "zonetime-map-")), `table-${crypto.randomUUID()}.bin`);
  const content = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) content[i] = (i * 7919) & 0xff;
  writeFileSync(path, content);
  return { path, content };
}

test("the file's bytes, from a sealed copy mapped PROT_READ (r--s), not the file", () => {
  const { path, content } = tableFile(3 * 4096 + 5);
  const buffer = mapTable(path);
  expect(new Uint8Array(buffer)).toEqual(content);
  const lines = mappingsOf(path);
  expect(lines.length).toBe(1);
  expect(lines[0]!).toContain("/memfd:zonetime:");
  expect(lines[0]!.split(/\s+/)[1]).toBe("r--s");
});

test("the file truncated, overwritten in place or replaced afterwards: what was loaded is unchanged and readable", () => {
  const { path, content } = tableFile(1 << 20);
  const view = new Uint8Array(mapTable(path));
  truncateSync(path, 4096); // a mapping of the file would now fault (SIGBUS) past 4096
  expect(view[(1 << 20) - 1]).toBe(content[(1 << 20) - 1]);
  writeFileSync(path, new Uint8Array(1 << 20).fill(0xee)); // same size, other bytes (O_TRUNC then write, same inode)
  expect(view).toEqual(content);
});

test("a mapping no longer referenced is unmapped when collected", () => {
  const { path, content } = tableFile(64 * 1024);
  const map = () => {
    let sum = 0;
    for (let i = 0; i < 50; i++) sum += new Uint8Array(mapTable(path))[1]!;
    return sum;
  };
  expect(map()).toBe(50 * content[1]!);
  expect(mappingsOf(path).length).toBeGreaterThan(0);
  for (let i = 0; i < 5 && mappingsOf(path).length > 2; i++) Bun.gc(true);
  // The stack is scanned conservatively: one or two may survive a collection, never the fifty.
  expect(mappingsOf(path).length).toBeLessThanOrEqual(2);
});

test("an empty file is an empty buffer (the reader then says truncated); a missing one is named", () => {
  const { path } = tableFile(0);
  expect(mapTable(path).byteLength).toBe(0);
  expect(() => mapTable(`${path}.absent`)).toThrow(`${path}.absent: missing: run \`bun run build\``);
});
