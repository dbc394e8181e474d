// `bun run tzdb:update` keeps the releases it replaces: on a copy of data/tzdb and
// data/tzdb-releases (never the repo's own), an update to a new release puts it at the head
// of the chain and keeps every older one, each still reproducing its sha256 (its zic input
// and its .tab tables).

import { expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoredReleases } from "../../scripts/tzdb/history/release-store.ts";
import { REPO_TZDB_DIR } from "../support/history-table.ts";

const ROOT = join(import.meta.dir, "..", "..");

test("an update to 2026g keeps 2026f and every older release", async () => {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-keep-"));
  cpSync(REPO_TZDB_DIR, join(dir, "tzdb"), { recursive: true });
  cpSync(join(REPO_TZDB_DIR, "..", "tzdb-releases"), join(dir, "tzdb-releases"), { recursive: true });
  const before = readStoredReleases(join(dir, "tzdb"), join(dir, "tzdb-releases"));
  // A release after the default: its text with another version line and one rule changed.
  const current = readFileSync(join(REPO_TZDB_DIR, "tzdata.zi"), "utf8");
  const next = current.replace(/^# version \S+$/m, "# version 2026g").replace(/^R Q 2027 ma - N Su>=1 0s 0 S$/m, "R Q 2027 ma - N Su>=2 0s 0 S");
  expect(next).not.toBe(current.replace(/^# version \S+$/m, "# version 2026g"));
  const input = join(dir, "tzdata-2026g.zi");
  writeFileSync(input, next);
  const child = Bun.spawn(["bun", "scripts/tzdb-update.ts", input, "--tzdb-dir", join(dir, "tzdb"), "--no-build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  expect(stdout).toContain(`keeps ${before.length} older releases`);
  const after = readStoredReleases(join(dir, "tzdb"), join(dir, "tzdb-releases"));
  expect(after.map((r) => r.release)).toEqual(["2026g", ...before.map((r) => r.release)]);
  expect(after[0]!.text).toBe(next);
  // Every older release still reads back to exactly its text, and to its own .tab tables.
  for (const [i, r] of before.entries()) {
    expect({ release: r.release, same: after[i + 1]!.text === r.text, tabs: after[i + 1]!.tabs === r.tabs }).toEqual({ release: r.release, same: true, tabs: true });
  }
  // Each has its zone.tab and iso3166.tab from 96k on; the releases before had none (an empty bundle).
  const withTabs = (r: { tabs: string }) => r.tabs.includes("## zone.tab\n") && r.tabs.includes("## iso3166.tab\n");
  const older = before.slice(before.findIndex((r) => r.release === "96k") + 1);
  expect(older.map((r) => r.release)).toContain("92c");
  expect(before.filter((r) => !withTabs(r)).map((r) => `${r.release}:${r.tabs}`)).toEqual(older.map((r) => `${r.release}:`));
  expect(before.filter(withTabs).length).toBeGreaterThan(200);
  // A bare tzdata.zi brings no tables: the new head keeps those data/tzdb had.
  expect(after[0]!.tabs).toBe(before[0]!.tabs);
}, 120_000);
