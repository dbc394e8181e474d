// One release's zic input stored as the edit that turns its newer neighbour into it.
// Consecutive releases differ in a few dozen lines, so the whole history fits in a small
// fraction of one full text. The edit is `diff -n` (RCS) output: a list of "dL N" (delete N
// lines from line L of the newer text) and "aL N" (after line L, add the N lines that
// follow) commands, whose line numbers all refer to the newer text. Making one needs
// diffutils (Debian's essential set); applying one needs nothing but this file.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class DeltaError extends Error {}

function linesOf(text: string): string[] {
  if (text !== "" && !text.endsWith("\n")) throw new DeltaError("a zic input must end with a newline");
  return text === "" ? [] : text.slice(0, -1).split("\n");
}

/** The `diff -n` edit from `newer` to `older`. */
export function makeDelta(newer: string, older: string): string {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-delta-"));
  try {
    writeFileSync(join(dir, "newer"), newer);
    writeFileSync(join(dir, "older"), older);
    const result = Bun.spawnSync(["diff", "-n", "newer", "older"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    // diff exits 0 (same) or 1 (different); 2 is trouble.
    if (result.exitCode !== 0 && result.exitCode !== 1) throw new DeltaError(`diff failed: ${result.stderr.toString()}`);
    const delta = result.stdout.toString();
    if (applyDelta(newer, delta) !== older) throw new DeltaError("diff -n produced an edit that does not reproduce the older text");
    return delta;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Applies a `diff -n` edit to `newer`, giving back the older text. */
export function applyDelta(newer: string, delta: string): string {
  const source = linesOf(newer);
  const commands = linesOf(delta);
  const out: string[] = [];
  let copied = 0; // lines of `source` already handled
  for (let i = 0; i < commands.length;) {
    const m = /^([ad])(\d+) (\d+)$/.exec(commands[i]!);
    if (!m) throw new DeltaError(`bad edit command "${commands[i]}" at line ${i + 1}`);
    const line = Number(m[2]);
    const count = Number(m[3]);
    i++;
    if (m[1] === "d") {
      if (line - 1 < copied || line - 1 + count > source.length) throw new DeltaError(`delete out of order at line ${i}`);
      out.push(...source.slice(copied, line - 1));
      copied = line - 1 + count;
    } else {
      if (line < copied || line > source.length || i + count > commands.length) throw new DeltaError(`add out of order at line ${i}`);
      out.push(...source.slice(copied, line));
      copied = line;
      out.push(...commands.slice(i, i + count));
      i += count;
    }
  }
  out.push(...source.slice(copied));
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}
