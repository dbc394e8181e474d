// WorldTimeAPI drop-in: for each of the 596 genuine WorldTimeAPI bodies captured on
// 2025-10-01 (read where they are, in ../shared; never copied into the repo), ask
// /api/timezone/<name>?at=<that instant, to the microsecond> and compare every field and
// the key order. WorldTimeAPI ran tzdb 2024a; where a zone's rules changed since, the
// test does not trust either side: zic+zdump on our own data/tzdb source decide, and the
// zone is listed with what changed.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sharedData } from "../support/shared-data.ts";
import { startTestServer } from "../support/test-server.ts";
import { referenceTzdir, sourceRelease } from "../support/tzdb-reference.ts";
import { stateAt, utcOffsetText, zdumpHistories } from "../support/zic-reference.ts";

const CAPTURE = sharedData(join("data", "wta-capture-2025-10-01"), "WorldTimeAPI conformance (the field tests still cover the format)");

type Body = Record<string, unknown> & { timezone: string; unixtime: number; utc_datetime: string };

/** The fields that depend on the zone's rules at that instant (the rest must always match). */
const RULE_FIELDS = ["utc_offset", "datetime", "raw_offset", "dst", "abbreviation", "dst_offset", "dst_from", "dst_until", "day_of_week", "day_of_year", "week_number"];

const utcText = (t: number | null) => (t === null || !Number.isFinite(t) ? null : new Date(t * 1000).toISOString().replace(".000Z", "+00:00"));

describe.skipIf(CAPTURE === null)("WorldTimeAPI capture 2025-10-01", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.stop());

  test("596 bodies reproduced field for field, tzdb changes since 2024a explained by zdump", async () => {
    const capture = CAPTURE!;
    const files = readdirSync(capture).filter((f) => f.endsWith(".json") && !f.startsWith("_"));
    expect(files.length).toBe(596);
    const bodies = files.map((f) => JSON.parse(readFileSync(join(capture, f), "utf8")) as Body);
    const reference = await zdumpHistories(referenceTzdir(), bodies.map((b) => b.timezone), 2024, 2027);
    const release = sourceRelease();

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
      const zdump = stateAt(reference.get(body.timezone)!, body.unixtime);
      const agreesWithZdump = ours.abbreviation === zdump.state.abbr && ours.dst === zdump.state.isdst &&
        ours.utc_offset === utcOffsetText(zdump.state.utoff) &&
        ours.dst_from === utcText(zdump.from) && ours.dst_until === utcText(zdump.until);
      const onlyRuleFields = differing.every((k) => RULE_FIELDS.includes(k));
      if (agreesWithZdump && onlyRuleFields) {
        changedSince2024a.push(`${body.timezone}: WorldTimeAPI (2024a) ${body.utc_offset} ${body.abbreviation}` +
          ` dst=${body.dst}; zdump on ${release} and zonetime ${ours.utc_offset} ${ours.abbreviation} dst=${ours.dst}` +
          ` (fields: ${differing.join(", ")})`);
      } else {
        unexplained.push(`${body.timezone}: ${differing.map((k) => `${k} ours ${JSON.stringify(ours[k])} vs ${JSON.stringify(body[k])}`).join("; ")}`);
      }
    }
    console.log(`WorldTimeAPI conformance: ${identical} identical, ${changedSince2024a.length} changed since 2024a:\n  ${changedSince2024a.join("\n  ")}`);
    expect(unexplained).toEqual([]);
    // The rule changes between 2024a and today's releases that reach 2025-10-01 are few (2024b:
    // Paraguay's permanent -03; 2025a: Moldova on EU transition times); a large count
    // would mean we, not the rules, are wrong.
    expect(changedSince2024a.length).toBeGreaterThan(0);
    expect(changedSince2024a.length).toBeLessThan(20);
  }, 180_000);
});
