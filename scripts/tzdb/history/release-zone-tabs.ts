// Each release's zone.tab as `/timezone?country=CC&tzdb=R` reads it: the rows that give a
// country its names. Distinct `CC\tname` rows are stored once; each distinct table is a
// hex bitmap over them (a release's zone.tab has ~400 of ~700 rows, so 175 characters a
// table), and releases whose zone.tab lists the same rows share one.

import type { HistoryZoneTabs } from "../../../server/formats/history-format.ts";
import { unbundleTabs } from "./release-tabs.ts";

/** The zone.tab rows of each tab bundle (in order), as the format stores them. */
export function releaseZoneTabs(bundles: readonly string[]): HistoryZoneTabs {
  const perRelease = bundles.map((bundle) => {
    const zoneTab = unbundleTabs(bundle).get("zone.tab");
    if (zoneTab === undefined) return null;
    return zoneTab.split("\n").filter((l) => l !== "").map((l) => {
      const [code, , name] = l.split("\t");
      return `${code}\t${name}`;
    });
  });
  const rows = [...new Set(perRelease.flatMap((r) => r ?? []))].sort();
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const tables: string[] = [];
  const tableOf = perRelease.map((released) => {
    if (released === null) return -1;
    const bits = new Uint8Array(Math.ceil(rows.length / 4));
    for (const row of released) {
      const i = rowIndex.get(row)!;
      bits[i >> 2]! |= 8 >> (i & 3);
    }
    const table = Array.from(bits, (b) => b.toString(16)).join("");
    const t = tables.indexOf(table);
    return t >= 0 ? t : tables.push(table) - 1;
  });
  return { rows, tables, tableOf };
}
