// CLDR's canonical id of a tz name, as Google's Time Zone API answers it ("the first alias in
// timezone.xml": Asia/Calcutta for Asia/Kolkata), read here from cldr-bcp47 itself, apart
// from the names table the server answers from.

import { readFileSync } from "node:fs";
import { join } from "node:path";

const CANONICAL = (() => {
  const file = join(import.meta.dir, "..", "..", "node_modules", "cldr-bcp47", "bcp47", "timezone.json");
  const tz = JSON.parse(readFileSync(file, "utf8")).keyword.u.tz as Record<string, { _alias?: string; _iana?: string }>;
  const map = new Map<string, string>();
  for (const entry of Object.values(tz)) {
    if (!entry._alias) continue;
    const aliases = entry._alias.split(" ");
    for (const alias of aliases) map.set(alias, aliases[0]!);
    if (entry._iana) map.set(entry._iana, aliases[0]!);
  }
  return map;
})();

export const cldrCanonical = (name: string) => CANONICAL.get(name) ?? name;
