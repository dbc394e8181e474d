// 93g-96f define Rules twice (Egypt's copied from africa into asia, Russia's in both asia and
// europe): twins fire at one instant, which today's zic refuses ("two rules for same
// instant", since 2015f). Our reader takes them when each twin sets the same clock
// (scripts/tzdb/history/repeated-rules.ts): both fire, the second changes nothing. The
// reference for such a release is made of two zics built from IANA's repository:
// - the last zic that took twins (the parent of commit 5b8a5898, "Two rules can't take effect
//   at the same time"), today's zic but for that check, over 1800-2100 as for every release;
// - the release's own zic, which must give the same bytes with and without the Rule lines
//   that repeat an earlier one word for word: what it did with the copies is dropping them.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The commit whose zic still took two rules at one instant: the parent of 5b8a5898. */
export const LAST_ZIC_TAKING_TWINS = "9b533f2a270af30df880b139f68ef5b08ebb3f59";

/** The lines (1-based) of Rule lines that repeat an earlier one word for word. */
export function repeatedRuleLines(text: string): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  text.split("\n").forEach((line, i) => {
    if (!/^R(ule)?\s/.test(line)) return;
    const words = line.trim().split(/\s+/).join(" ");
    if (seen.has(words)) repeated.add(i + 1);
    seen.add(words);
  });
  return repeated;
}

/** Writes `text` without the given lines (1-based) to `path`. */
export function writeWithout(text: string, lines: ReadonlySet<number>, path: string): void {
  writeFileSync(path, text.split("\n").filter((_, i) => !lines.has(i + 1)).join("\n"));
}

/** The files of two compiled trees that differ in bytes (or exist in one only). */
export function differingFiles(a: string, b: string): string[] {
  const files = (root: string) => (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
  const [fa, fb] = [files(a), files(b)];
  const differ = [...fa.filter((f) => !fb.includes(f)), ...fb.filter((f) => !fa.includes(f))];
  for (const f of fa) if (fb.includes(f) && !readFileSync(join(a, f)).equals(readFileSync(join(b, f)))) differ.push(f);
  return differ;
}
