// WorldTimeAPI drop-in: for each of the 596 genuine WorldTimeAPI bodies captured on
// 2025-10-01 (read where they are, in ../shared; never copied into the repo), ask
// /api/timezone/<name>?at=<that instant, to the microsecond> and compare every field and
// the key order. WorldTimeAPI ran tzdb 2024a; where a zone's rules changed since, the
// test does not trust either side: zic+zdump on our own 2026f source decide, and the
// zone is listed with what changed.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileWithZic, zdumpHistories, type ClockState, type ZoneHistory } from "../support/zic-reference.ts";
import { REPO_TZDATA } from "../support/zone-table.ts";
import { ROOT, startTestServer } from "../support/test-server.ts";

const CAPTURE = join(ROOT, "..", "shared", "data", "wta-capture-2025-10-01");
const present = existsSync(CAPTURE);
if (!present) console.warn(`WorldTimeAPI conformance skipped: ${CAPTURE} is absent; the field tests still cover the format`);

type Body = Record<string, unknown> & { timezone: string; unixtime: number; utc_datetime: string };

/** The fields that depend on the zone's rules at that instant (the rest must always match). */
const RULE_FIELDS = ["utc_offset", "datetime", "raw_offset", "dst", "abbreviation", "dst_offset", "dst_from", "dst_until", "day_of_week", "day_of_year", "week_number"];

/** What zdump says at t: the state, and when isdst the bounds of the isdst run around it. */
function zdumpAt(history: ZoneHistory, t: number): { state: ClockState; from: number | null; until: number | null } {
  const all = [{ at: -Infinity, state: history.initial }, ...history.transitions];
  let i = 0;
  while (i + 1 < all.length && all[i + 1]!.at <= t) i++;
  const state = all[i]!.state;
  if (!state.isdst) return { state, from: null, until: null };
  let first = i;
  while (first > 0 && all[first - 1]!.state.isdst) first--;
  let last = i;
  while (last + 1 < all.length && all[last + 1]!.state.isdst) last++;
  return { state, from: all[first]!.at, until: last + 1 < all.length ? all[last + 1]!.at : null };
}

const utcText = (t: number | null) => (t === null || !Number.isFinite(t) ? null : new Date(t * 1000).toISOString().replace(".000Z", "+00:00"));

describe.skipIf(!present)("WorldTimeAPI capture 2025-10-01", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.stop());

  test("596 bodies reproduced field for field, tzdb changes since 2024a explained by zdump", async () => {
    const files = readdirSync(CAPTURE).filter((f) => f.endsWith(".json") && !f.startsWith("_"));
    expect(files.length).toBe(596);
    const bodies = files.map((f) => JSON.parse(readFileSync(join(CAPTURE, f), "utf8")) as Body);
    const reference = await zdumpHistories(compileWithZic([REPO_TZDATA]), bodies.map((b) => b.timezone), 2024, 2027);

    const unexplained: string[] = [];
    const changedSince2024a: string[] = [];
    let identical = 0;
    for (const body of bodies) {
      const fraction = body.utc_datetime.slice(19, 26); // ".ffffff"
      const response = await fetch(`${server.url}/api/timezone/${body.timezone}?at=${body.unixtime}${fraction}`);
      if (response.status !== 200) {
        unexplained.push(`${body.timezone}: HTTP ${response.status}`);
        continue;
      }
      const ours = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(ours)).toEqual([...Object.keys(body), "client_ip"]);
      const differing = Object.keys(body).filter((k) => JSON.stringify(ours[k]) !== JSON.stringify(body[k]));
      if (differing.length === 0) {
        identical++;
        continue;
      }
      const zdump = zdumpAt(reference.get(body.timezone)!, body.unixtime);
      const agreesWithZdump = ours.abbreviation === zdump.state.abbr && ours.dst === zdump.state.isdst &&
        ours.utc_offset === offsetText(zdump.state.utoff) &&
        ours.dst_from === utcText(zdump.from) && ours.dst_until === utcText(zdump.until);
      const onlyRuleFields = differing.every((k) => RULE_FIELDS.includes(k));
      if (agreesWithZdump && onlyRuleFields) {
        changedSince2024a.push(`${body.timezone}: WorldTimeAPI (2024a) ${body.utc_offset} ${body.abbreviation}` +
          ` dst=${body.dst}; zdump on 2026f and zonetime ${ours.utc_offset} ${ours.abbreviation} dst=${ours.dst}` +
          ` (fields: ${differing.join(", ")})`);
      } else {
        unexplained.push(`${body.timezone}: ${differing.map((k) => `${k} ours ${JSON.stringify(ours[k])} vs ${JSON.stringify(body[k])}`).join("; ")}`);
      }
    }
    console.log(`WorldTimeAPI conformance: ${identical} identical, ${changedSince2024a.length} changed since 2024a:\n  ${changedSince2024a.join("\n  ")}`);
    expect(unexplained).toEqual([]);
    // The rule changes between 2024a and 2026f that reach 2025-10-01 are few (2024b:
    // Paraguay's permanent -03; 2025a: Moldova on EU transition times); a large count
    // would mean we, not the rules, are wrong.
    expect(changedSince2024a.length).toBeGreaterThan(0);
    expect(changedSince2024a.length).toBeLessThan(20);
  }, 180_000);
});

function offsetText(utoff: number): string {
  const a = Math.abs(utoff);
  return `${utoff < 0 ? "-" : "+"}${String(Math.floor(a / 3600)).padStart(2, "0")}:${String(Math.floor((a % 3600) / 60)).padStart(2, "0")}`;
}
