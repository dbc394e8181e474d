// WorldTimeAPI answered /api/{area}/{location} like /api/timezone/{area}/{location}, and
// clients (R's worldtimer, many snippets) call it so: for every one of the 596 captured
// names, at the captured instant, both paths must give byte-identical bodies, JSON and .txt.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sharedData } from "../support/shared-data.ts";
import { startTestServer } from "../support/test-server.ts";

const CAPTURE = sharedData(join("data", "wta-capture-2025-10-01"), "WorldTimeAPI alias check");

describe.skipIf(CAPTURE === null)("/api/{area}/{location} alias", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.stop());

  test("all 596 captured names: identical bodies via both paths, for the same ?at=", async () => {
    const capture = CAPTURE!;
    const files = readdirSync(capture).filter((f) => f.endsWith(".json") && !f.startsWith("_"));
    expect(files.length).toBe(596);
    const differences: string[] = [];
    let compared = 0;
    for (const file of files) {
      const body = JSON.parse(readFileSync(join(capture, file), "utf8")) as { timezone: string; unixtime: number; utc_datetime: string };
      const at = `${body.unixtime}${body.utc_datetime.slice(19, 26)}`;
      for (const suffix of ["", ".txt"]) {
        const [alias, canonical] = await Promise.all([
          fetch(`${server.url}/api/${body.timezone}${suffix}?at=${at}`),
          fetch(`${server.url}/api/timezone/${body.timezone}${suffix}?at=${at}`),
        ]);
        const [a, b] = [await alias.text(), await canonical.text()];
        compared++;
        if (alias.status !== 200 || canonical.status !== 200 || a !== b) {
          differences.push(`${body.timezone}${suffix}: ${alias.status} ${a.slice(0, 80)} vs ${canonical.status} ${b.slice(0, 80)}`);
        }
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBe(2 * 596);
  }, 120_000);
});
