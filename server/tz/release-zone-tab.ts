// A release's zone.tab rows for one country, from the history file's shared tables
// (formats/history-format.ts, HistoryZoneTabs): the names `/timezone?country=CC&tzdb=R` lists.

import type { HistoryZoneTabs } from "../formats/history-format.ts";

/** The names table `t` gives `code` (upper case), sorted as the default list is. */
export function zoneTabNames(zoneTabs: HistoryZoneTabs, t: number, code: string): string[] {
  const bits = zoneTabs.tables[t]!;
  const prefix = `${code}\t`;
  const out: string[] = [];
  zoneTabs.rows.forEach((row, i) => {
    if (row.startsWith(prefix) && (parseInt(bits[i >> 2]!, 16) & (8 >> (i & 3))) !== 0) out.push(row.slice(prefix.length));
  });
  return out.sort();
}
