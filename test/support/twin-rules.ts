// 93g-96f define some Rules twice: Egypt's copied from africa into asia (93g-96f), Russia's
// in both asia and europe (word for word in 95m-96f; in 93g-95l asia's change at 2:00 and
// 3:00 wall time, europe's at 2:00s), and 93g-95h's `Winn 1947 1949` and `Winn 1948 1960
// Apr lastSun 2:00` (the same rule, years that overlap). Where their years meet, twins fire
// at one instant, which today's zic refuses ("two rules for same instant", since 2015f). Our
// reader counts a later twin only in the years no earlier one fires in (scripts/tzdb/
// resolve.ts). The reference for such a release is made of two zics:
// - the release's own zic (scripts/tzdb/era-zic.ts), which took the twins: its output must
//   read the same with and without them (zdump -v, 1901-2037; 95m-96f's are the same bytes,
//   93g-95l's differ only in a standard/wall flag of the twin's type), so what it did with
//   them is nothing, and the zones that use them must read as today's zic has them;
// - today's zic on the source without them, over 1800-2100 as for every release.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Years a Rule line's FROM and TO name (`min`, `only`, `max` and their prefixes). */
function years(words: string[]): [number, number] {
  const from = /^mi/.test(words[2]!) ? -Infinity : Number(words[2]);
  const to = /^o/.test(words[3]!) ? from : /^ma/.test(words[3]!) ? Infinity : /^mi/.test(words[3]!) ? -Infinity : Number(words[3]);
  return [from, to];
}

/**
 * `text` with each Rule line that repeats an earlier one in all but its years and AT kept
 * only in the years no earlier one covers: dropped when none is left, else its FROM moved
 * past them. `rules` names the Rules changed.
 */
export function withoutTwins(text: string): { text: string; changed: number; rules: Set<string> } {
  const seen = new Map<string, [number, number][]>();
  const rules = new Set<string>();
  let changed = 0;
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (!/^R(ule)?\s/.test(line)) {
      out.push(line);
      continue;
    }
    const words = line.trim().split(/\s+/);
    const key = [words[1], ...words.slice(4, 7), ...words.slice(8)].join(" ");
    const [from, to] = years(words);
    const earlier = seen.get(key) ?? [];
    seen.set(key, [...earlier, [from, to]]);
    let start = from;
    let left = true;
    for (let moved = true; moved && left;) {
      moved = false;
      for (const [f, t] of earlier) {
        if (start < f || start > t) continue;
        if (t >= to) left = false;
        [start, moved] = [t + 1, true];
      }
    }
    if (start === from) {
      out.push(line);
      continue;
    }
    changed++;
    rules.add(words[1]!);
    if (left) out.push([words[0], words[1], String(start), ...words.slice(3)].join("\t"));
  }
  return { text: out.join("\n"), changed, rules };
}

/** The Zones (by name) whose lines name one of `rules`. */
export function zonesUsing(text: string, rules: ReadonlySet<string>): string[] {
  const zones = new Set<string>();
  let zone: string | null = null;
  for (const line of text.split("\n")) {
    const words = line.trim().split(/\s+/);
    if (/^Z(one)?\s/.test(line)) [zone, words[0]] = [words[1]!, ""];
    else if (!/^\s/.test(line)) zone = null;
    if (zone === null) continue;
    // A Zone line's RULES is its fourth word, a continuation line's its second.
    const ruleWord = /^Z/.test(line) ? words[3] : words[1];
    if (ruleWord !== undefined && rules.has(ruleWord)) zones.add(zone);
  }
  return [...zones].sort();
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
