// Names where ICU's tz data (tzdb's rearguard form) has a change the main form cannot show:
// Namibia's last summer, +01 with 1h of DST from 2017-09-03 01:00 UTC until the Namibian Time
// Act took effect (2017-10-24 00:00 local), where tzdata.zi has CAT (+02, standard) for good
// from 2017-09-03 (server/names/icu-offsets.ts). The any-instant test samples our own
// transitions only; this one samples every day around that change and both sides of each of
// its ends, in the 30 locales, long and longGeneric, against Node 20's ICU.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { resolveLocale } from "../../server/names/locale-tag.ts";
import { NAME_LOCALES } from "../support/name-locales.ts";
import { requireTool } from "../support/require-tool.ts";
import { testNamer } from "../support/names-table.ts";

const NAME = "Africa/Windhoek";
const DAY = 86400;
const FROM = Date.UTC(2017, 8, 3, 1) / 1000;
const UNTIL = Date.UTC(2017, 9, 23, 22) / 1000;

function instants(): number[] {
  const out = [FROM - 1, FROM, UNTIL - 1, UNTIL];
  // Every day from 200 days before to 200 days after: ICU's generic names look 184 days around.
  for (let t = FROM - 200 * DAY; t < UNTIL + 200 * DAY; t += DAY) out.push(t);
  return out;
}

test("Africa/Windhoek around Namibia's last DST: long and longGeneric equal ICU's in 30 locales", async () => {
  const namer = await testNamer();
  const times = instants();
  const input = `${JSON.stringify({ locales: NAME_LOCALES })}\n${JSON.stringify({ name: NAME, instants: times })}\n`;
  const run = Bun.spawnSync([requireTool("node"), join(import.meta.dir, "..", "support", "icu-names-at-instants.cjs")], { stdin: new TextEncoder().encode(input) });
  expect(run.exitCode).toBe(0);
  const [, answer] = run.stdout.toString().trim().split("\n");
  const [, , longs, generics] = JSON.parse(answer!) as [string, number[], string[][], string[][]];
  const differences: string[] = [];
  NAME_LOCALES.forEach((tag, l) => {
    const locale = resolveLocale(namer.names, tag);
    times.forEach((t, i) => {
      const when = new Date(t * 1000).toISOString();
      const long = namer.longNameAt(NAME, t, locale, "specific");
      const generic = namer.longNameAt(NAME, t, locale, "generic");
      if (long !== longs[l]![i]) differences.push(`${tag} ${when} long: ICU "${longs[l]![i]}", ours "${long}"`);
      if (generic !== generics[l]![i]) differences.push(`${tag} ${when} longGeneric: ICU "${generics[l]![i]}", ours "${generic}"`);
    });
  });
  expect(differences.slice(0, 20)).toEqual([]);
  expect(times.length * NAME_LOCALES.length).toBeGreaterThan(10_000);
}, 120_000);
