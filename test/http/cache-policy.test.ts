// Who may keep an answer (server/http/caching/cache-policy.ts): every row of the route table
// names a policy, and every answer of the row says exactly that in Cache-Control; `Vary`
// names a request header exactly where an answer changes with it; docs/shared-caches.md
// lists every row's policy as the table has it.

import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROUTE_TABLE } from "../../server/http/routing/route-table.ts";
import { TIMEZONEDB_V1_ROW } from "../../server/http/dialects/timezonedb/v1-root.ts";
import type { RouteRow } from "../../server/http/contract.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { loadData } from "../../server/process/load-data.ts";
import { realtimeClock } from "../../server/core/clock.ts";
import { SAMPLES } from "../support/route-samples.ts";
import { ROOT, testConfig, testDataDir, testHandler } from "../support/test-server.ts";

/** The rows a request can reach: the table's, and TimeZoneDB's first API at the root. */
const ROWS: readonly RouteRow[] = [...ROUTE_TABLE, TIMEZONEDB_V1_ROW];
const SAMPLE_OF = (row: RouteRow) => (row === TIMEZONEDB_V1_ROW ? "/?key=k&zone=America/Chicago&format=json" : SAMPLES[row.pattern]!);

/** The policy a Cache-Control value is written by (cache-policy.ts), or what it was if none. */
function policyOf(cacheControl: string | null): string {
  if (cacheControl === "no-store") return "live";
  if (/^public, max-age=(\d+), s-maxage=\1$/.test(cacheControl ?? "")) return "until";
  if (/^public, max-age=(\d+), s-maxage=\1, stale-while-revalidate=\1$/.test(cacheControl ?? "")) return "release";
  return `none of them: ${cacheControl}`;
}

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 120_000);

const ask = (sample: string | { path: string; init: RequestInit }, headers: Record<string, string> = {}) => {
  const { path, init } = typeof sample === "string" ? { path: sample, init: {} } : sample;
  return handle(new Request(`http://127.0.0.1${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } }));
};

describe("Cache-Control: the row's policy", () => {
  test("every row's answer says what its row's policy says; a shared one says s-maxage; one about now or the caller, or a refusal, no-store", async () => {
    const seen: { pattern: string; status: number; policy: string }[] = [];
    const want: typeof seen = [];
    for (const row of ROWS) {
      const r = await ask(SAMPLE_OF(row));
      seen.push({ pattern: row.pattern, status: r.status, policy: policyOf(r.headers.get("cache-control")) });
      // A shared row's sample is an answer (the check would be empty on a refusal); /ip has no caller in process.
      // A time object is live on the rows that also answer an area's list (their sample is a zone's name).
      const policy = row.cache.name === "live or release" ? "live" : row.cache.name;
      want.push({ pattern: row.pattern, status: policy === "live" ? r.status : 200, policy: r.status === 200 ? policy : "live" });
    }
    expect(seen).toEqual(want);
    // The three policies are all in use, and the dialects' answers about now are never shared.
    expect(new Set(ROWS.map((r) => r.cache.name))).toEqual(new Set(["live", "until", "release", "live or release"]));
    // ...and an area's list on those rows is the release's.
    for (const path of ["/timezone/America/Argentina", "/api/timezone/Europe", "/timezone/Europe.txt"]) {
      const r = await ask(path);
      expect({ path, status: r.status, policy: policyOf(r.headers.get("cache-control")) }).toEqual({ path, status: 200, policy: "release" });
    }
    // Answers about now or the caller, each a 200 (in process, /ip's sample has no caller): never kept.
    for (const path of ["/timezone/Europe/London", "/api/timezone/Europe/London", "/ip/8.8.8.8", "/coordinates/51.5,-0.12", "/clock?zones=UTC", "/api/Time/current/zone?timeZone=UTC", "/v2.1/get-time-zone?key=k&format=json&by=zone&zone=UTC"]) {
      const r = await ask(path, { "x-forwarded-for": "81.2.69.142" });
      expect({ path, status: r.status, cacheControl: r.headers.get("cache-control") }).toEqual({ path, status: 200, cacheControl: "no-store" });
    }
    // A refusal of a shared route is not kept either.
    const refused = await ask("/timezone/Mars/Olympus_Mons/info");
    expect({ status: refused.status, cacheControl: refused.headers.get("cache-control") }).toEqual({ status: 404, cacheControl: "no-store" });
  }, 60_000); // every row's first answer is built here (the device lists, the feeds): seconds on a loaded machine

  test("an answer right until the zone's next change is kept until then by a shared cache, never served stale", async () => {
    const r = await ask("/timezone/America/New_York/info");
    const [, maxAge, shared] = /^public, max-age=(\d+), s-maxage=(\d+)$/.exec(r.headers.get("cache-control") ?? "")!.map(Number);
    const next = Date.parse(((await r.json()) as { next_transition: { at: string } }).next_transition.at) / 1000;
    expect(shared).toBe(maxAge!);
    expect(maxAge).toBeLessThanOrEqual(Math.ceil(next - Date.now() / 1000));
    // The same route with a fixed instant is still the row's: until (no stale answer past a change).
    const at = await ask("/timezone/America/New_York/info?at=2027-01-01T00:00:00Z");
    expect(at.headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=86400");
  });

  test("a 304 carries the answer's Cache-Control", async () => {
    const r = await ask("/timezone");
    const again = await ask("/timezone", { "if-none-match": r.headers.get("etag")! });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe(r.headers.get("cache-control"));
    expect(policyOf(again.headers.get("cache-control"))).toBe("release");
  });
});

describe("Vary: exactly where an answer changes with a request header", () => {
  test("Google's answer names Accept-Language when it read it (no language= in its query), and only then", async () => {
    const path = "/maps/api/timezone/json?location=48.85,2.35&timestamp=1700000000&key=k";
    const fr = await ask(path, { "accept-language": "fr" });
    const de = await ask(path, { "accept-language": "de" });
    expect(fr.headers.get("vary")).toBe("Accept-Language");
    expect(policyOf(fr.headers.get("cache-control"))).toBe("release");
    // The header changes the answer: a shared cache without Vary would give one language to all.
    expect(((await fr.json()) as { timeZoneName: string }).timeZoneName).toBe("heure normale d’Europe centrale");
    expect(((await de.json()) as { timeZoneName: string }).timeZoneName).toBe("Mitteleuropäische Normalzeit");
    // Recalled from the dialect's kept answers: the same headers.
    expect((await ask(path, { "accept-language": "fr" })).headers.get("vary")).toBe("Accept-Language");
    const named = await ask(`${path}&language=ja`, { "accept-language": "fr" });
    expect(named.headers.get("vary")).toBeNull();
    expect(((await named.json()) as { timeZoneName: string }).timeZoneName).toBe("中央ヨーロッパ標準時");
  });

  test("no other row's answer changes with Accept-Language, Accept or Accept-Encoding, and none says Vary", async () => {
    const differing: string[] = [];
    for (const row of ROWS) {
      if (row.cache.name.startsWith("live")) continue; // about now: two answers differ anyway, and no cache keeps them
      const sample = SAMPLE_OF(row);
      const plain = await ask(sample);
      const body = await plain.text();
      const vary = plain.headers.get("vary");
      if (vary !== (row.cache.vary !== null && !String(sample).includes("language=") ? row.cache.vary : null)) differing.push(`${row.pattern}: Vary ${vary}`);
      if (row.cache.vary !== null) continue;
      const others: Record<string, string>[] = [{ "accept-language": "ja" }, { accept: "text/html" }, { accept: "application/xml" }, { "accept-encoding": "br" }];
      for (const headers of others) {
        const other = await ask(sample, headers);
        if ((await other.text()) !== body) differing.push(`${row.pattern} with ${JSON.stringify(headers)}`);
      }
    }
    expect(differing).toEqual([]);
  });

  test("/ is the home page or, to a client that refuses HTML, the API's index: both vary by Accept", async () => {
    // A site of two files (the home page and its gzip copy) is enough for the negotiation.
    const site = mkdtempSync(join(tmpdir(), "zonetime-vary-site-"));
    const page = "<!doctype html><title>zonetime</title>";
    writeFileSync(join(site, "index.html"), page);
    writeFileSync(join(site, "index.html.gz"), gzipSync(page));
    const state = createAppState(await loadData(await testDataDir()), realtimeClock, await testConfig({ SITE_DIR: site }));
    const withSite = createFetchHandler(state);
    const get = (accept: string) => withSite(new Request("http://127.0.0.1/", { headers: { accept } }), null) as Response;
    const html = get("text/html");
    const json = get("application/json");
    expect(html.headers.get("content-type")).toStartWith("text/html");
    expect(json.headers.get("content-type")).toStartWith("application/json");
    expect(html.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(json.headers.get("vary")).toBe("Accept");
    expect(policyOf(html.headers.get("cache-control"))).toBe("release");
    expect(policyOf(json.headers.get("cache-control"))).toBe("release");
    // Without a website there is nothing to choose between: the index alone, no Vary.
    expect((await ask("/", { accept: "application/json" })).headers.get("vary")).toBeNull();
  });
});

/** A row's paths as a client sends them: under /api too for the WorldTimeAPI profile's rows. */
function pathsOf(row: RouteRow): string {
  if (row.only === "wta") return `\`/api${row.pattern === "/" ? "" : row.pattern}\``;
  if (row.on === "api") return `\`${row.pattern}\`, \`/api${row.pattern}\``;
  return row === TIMEZONEDB_V1_ROW ? "`/?key=...` (TimeZoneDB's first API)" : `\`${row.pattern}\``;
}

/** docs/shared-caches.md's table as the rows make it: one line per row, in the table's order. */
function policyTable(): string {
  const lines = ["| route | policy | Vary |", "|---|---|---|"];
  for (const row of ROWS) lines.push(`| ${pathsOf(row)} | ${row.cache.name} | ${row.cache.vary ?? ""} |`);
  return `${lines.join("\n")}\n`;
}

test("docs/shared-caches.md lists every row with its policy, as the route table has it", () => {
  const doc = readFileSync(join(ROOT, "docs", "shared-caches.md"), "utf8");
  const start = doc.indexOf("| route | policy | Vary |");
  const table = start < 0 ? "" : doc.slice(start, doc.indexOf("\n\n", start) + 1);
  if (table !== policyTable()) console.log(`docs/shared-caches.md's table should read:\n${policyTable()}`);
  expect(table).toBe(policyTable());
});
