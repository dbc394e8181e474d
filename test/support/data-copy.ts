// A private copy of a data folder for a test that changes files in it: the set its
// manifest.json names (sets/ID or beside it), copied flat beside a manifest that names no
// set. Every file is a file of its own (never a link back into the source), so what the
// test does to it cannot reach the shared test data.

import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TABLE_FILES } from "../../server/process/table-set.ts";

export function flatDataCopy(source: string, into: string = mkdtempSync(join(tmpdir(), "zonetime-data-copy-"))): string {
  const manifest = JSON.parse(readFileSync(join(source, "manifest.json"), "utf8")) as { set?: string };
  const setDir = manifest.set === undefined ? source : join(source, manifest.set);
  for (const name of TABLE_FILES) copyFileSync(join(setDir, name), join(into, name));
  delete manifest.set;
  writeFileSync(join(into, "manifest.json"), JSON.stringify(manifest, null, 2));
  return into;
}
