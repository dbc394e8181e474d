// Issue 19's memory goal: the two tables it added (places.bin, names.bin) are mapped into
// every instance, so together they stay under 25 MB (they were 32.9 MB before their 3.0 and
// 2.0 formats). A table that grows past it fails here, before it reaches a server.

import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { NAMES_FILE } from "../../server/formats/names-format.ts";
import { PLACES_FILE } from "../../server/formats/places-format.ts";
import { testDataDir } from "../support/test-server.ts";

const BUDGET_BYTES = 25_000_000;

test("places.bin and names.bin together stay under 25 MB", async () => {
  const dir = await testDataDir();
  const places = statSync(join(dir, PLACES_FILE)).size;
  const names = statSync(join(dir, NAMES_FILE)).size;
  // Both are real tables, not empty files: 199k places, 766 locales.
  expect(places).toBeGreaterThan(5_000_000);
  expect(names).toBeGreaterThan(2_000_000);
  expect(places + names, `places.bin ${places} + names.bin ${names} bytes`).toBeLessThan(BUDGET_BYTES);
}, 300_000);
