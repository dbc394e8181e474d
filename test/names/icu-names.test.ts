// Done-when 1 of issue 19: timezone_name (Intl's timeZoneName "long") and generic_long
// ("longGeneric") equal ICU's for every tz name x 30 locales x 20 instants 1990-2030,
// wherever ICU's offset equals ours. Node 20 on this machine (ICU 78.2, CLDR 48.0) is the
// reference, spawned once; Bun's own ICU is another version and is not used.

import { expect, test } from "bun:test";
import { join } from "node:path";
import { resolveLocale } from "../../server/names/locale-tag.ts";
import { testNamer } from "../support/names-table.ts";
import { inCi } from "../support/shared-data.ts";

const LOCALES = ["de", "fr", "ja", "zh-Hant", "ar", "hi", "ru", "pt-BR", "es-419", "sw",
  "en", "en-GB", "es", "it", "ko", "zh", "tr", "pl", "nl", "sv", "fa", "he", "th", "id", "vi", "uk", "el", "bn", "ar-EG", "mr"];
// 20 instants from 1990 to 2030, spread over months, days and hours so both halves of the
// year and the hours around transitions are met.
const INSTANTS = Array.from({ length: 20 }, (_, i) => Date.UTC(1990 + 2 * i + (i % 2), (i * 5) % 12, 1 + ((i * 7) % 27), (i * 5) % 24, 17) / 1000);

function nodeAvailable(): boolean {
  return Bun.which("node") !== null;
}

// Node carries the ICU the names are compared with; CI always has it (under CI=true this runs, never skips).
test.skipIf(!inCi() && !nodeAvailable())("timezone_name and generic_long equal ICU's (Node 20) for every name x 30 locales x 20 instants", async () => {
  const namer = await testNamer();
  const names = namer.zones.names.filter((n) => n !== "Factory");
  const child = Bun.spawn(["node", join(import.meta.dir, "..", "support", "icu-names-reference.cjs")], {
    stdin: new TextEncoder().encode(JSON.stringify({ names, locales: LOCALES, instants: INSTANTS })),
    stdout: "pipe",
    stderr: "inherit",
  });
  const lines = (await new Response(child.stdout).text()).trim().split("\n");
  expect(await child.exited).toBe(0);
  const versions = JSON.parse(lines[0]!) as { icu: string; cldr: string };
  expect(versions.cldr).toBe("48.0");
  let compared = 0;
  let skippedOffsets = 0;
  const unknownToIcu: string[] = [];
  const differences: string[] = [];
  for (const line of lines.slice(1)) {
    const row = JSON.parse(line) as [string, string | null, [number, string, string][]];
    const [name, tag, answers] = row;
    if (tag === null) {
      unknownToIcu.push(name);
      continue;
    }
    const locale = resolveLocale(namer.names, tag);
    const resolved = namer.zones.resolve(name)!;
    answers.forEach(([offset, long, generic], i) => {
      const t = INSTANTS[i]!;
      if (namer.zones.periodAt(resolved.zone, t).type.utoff !== offset) {
        skippedOffsets++;
        return;
      }
      compared++;
      const ours = namer.longNameAt(name, t, locale, "specific");
      const oursGeneric = namer.longNameAt(name, t, locale, "generic");
      if (ours !== long) differences.push(`${name} ${tag} ${new Date(t * 1000).toISOString()} long: ICU "${long}", ours "${ours}"`);
      if (oursGeneric !== generic) differences.push(`${name} ${tag} ${new Date(t * 1000).toISOString()} longGeneric: ICU "${generic}", ours "${oursGeneric}"`);
    });
  }
  console.log(`ICU ${versions.icu}: ${compared} (name, locale, instant) compared twice; ${skippedOffsets} skipped where ICU's offset differs from ours; ` +
    `unknown to ICU: ${unknownToIcu.join(", ") || "none"}; ${differences.length} differences`);
  if (differences.length > 0) console.log(differences.slice(0, 60).join("\n"));
  if (process.env.NAMES_DIFF_FILE) await Bun.write(process.env.NAMES_DIFF_FILE, differences.join("\n"));
  expect(compared).toBeGreaterThan(300_000);
  expect(differences).toEqual([]);
}, 300_000);
