// 95m-96f copy Egypt's rules from africa into asia and define Russia's word for word in both
// asia and europe: the copies fire at the same instants as the originals, which today's zic
// refuses ("two rules for same instant", since 2015f). Our reader takes such copies
// (scripts/tzdb/history/repeated-rules.ts): the second firing changes nothing. The reference
// for such a release is made of two zics:
// - the release's own zic (scripts/tzdb/era-zic.ts), which took the copies: its output must
//   be the same bytes with and without them, so what it did with them is dropping them;
// - today's zic on the source without them, over 1800-2100 as for every release.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
