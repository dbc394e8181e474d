// Varnish in front (server/deploy/varnish.vcl, Debian's varnish) over two replicas, and a
// replayed mix of every route of the table from 50 clients, each with its own public address
// (X-Forwarded-For, which Varnish extends and the replicas believe from loopback, as from a
// CDN's edge) and its own Accept-Language. Printed: each route's hit ratio. Asserted: no
// answer any client got was wrong for that client:
// - an answer about now or the caller (its row's policy is live) never came from the cache,
//   and a time object's unixtime is within 2 s of its arrival, its client_ip the caller's
//   (or the address asked about);
// - any other answer is byte for byte what a replica answers for that URL with the same
//   Accept-Language and Accept (so ?lang=, Google's Accept-Language and `/`'s Accept gave
//   what that client asked for);
// - every answer names the tzdb release the replicas serve (X-Tzdb-Version, the ETag);
// - an answer from the cache carries no other client's RateLimit budget.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROUTE_TABLE } from "../../server/http/routing/route-table.ts";
import { TIMEZONEDB_V1_ROW } from "../../server/http/dialects/timezonedb/v1-root.ts";
import type { RouteRow } from "../../server/http/contract.ts";
import { SAMPLES } from "../support/route-samples.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { ROOT } from "../support/test-server.ts";
import { sourceRelease } from "../support/tzdb-reference.ts";
import { startVarnish, VARNISHD_ARGS, type Varnish } from "../support/varnish.ts";

const REQUESTS = 100_000;
const CLIENTS = 50;
const LANGUAGES = ["en", "fr", "de", "ja", "es", "pt-BR", "zh-Hant", "ar", "ru", "hi"];
const ZONES = ["Europe/London", "America/New_York", "Asia/Kathmandu", "America/Havana", "Australia/Lord_Howe", "Europe/Dublin", "Africa/Casablanca", "Pacific/Apia", "America/Sao_Paulo", "Asia/Tokyo"];
/** Rows whose answer is a time object of the service's own: checked for the time and client_ip. */
const TIME_OBJECT_ROWS = new Set(["/timezone/{name*}", "/ip", "/ip/{address*}", "/coordinates/{point}", "/{name*}"]);

let replicas: ServerProcess[] = [];
let varnish: Varnish;
let site = "";

beforeAll(async () => {
  // A website of one page and its gzip copy: `/` is then negotiated by Accept.
  site = mkdtempSync(join(tmpdir(), "zonetime-varnish-site-"));
  writeFileSync(join(site, "index.html"), "<!doctype html><title>zonetime</title>");
  writeFileSync(join(site, "index.html.gz"), gzipSync("<!doctype html><title>zonetime</title>"));
  // A limit no client reaches, so that every answer of a limited route says the client's budget.
  const env = { RATE_LIMIT: "1000000/60s", TRUST_PROXY: "loopback", SITE_DIR: site };
  replicas = await Promise.all([0, 1].map(() => startServerProcess(env)));
  // The one edit: the clients all connect from 127.0.0.1, which Varnish appends to their
  // X-Forwarded-For, and an address a header names is never trusted as a loopback hop; taken
  // off, the replicas see each client's own address, as behind a CDN's edge (where Varnish
  // appends the client's real address, which the replicas take: TRUST_PROXY names Varnish).
  varnish = await startVarnish(replicas.map((r) => r.port), (vcl) => vcl.replace("sub vcl_recv {\n",
    'sub vcl_recv {\n    set req.http.X-Forwarded-For = regsub(req.http.X-Forwarded-For, ", 127\\.0\\.0\\.1$", "");\n'));
}, 240_000);

afterAll(async () => {
  await varnish?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  if (site) rmSync(site, { recursive: true, force: true });
});

interface Ask {
  /** The row's pattern (the hit ratio's line). */
  route: string;
  row: RouteRow | null;
  path: string;
  init: RequestInit;
  headers: Record<string, string>;
  /** What may be done with the answer: live (never from the cache), until or release (the replica's answer, from the cache). */
  policy: string;
  /** The client_ip a time object must show. */
  clientIp?: string;
}

const ROWS: readonly RouteRow[] = [...ROUTE_TABLE, TIMEZONEDB_V1_ROW];
const sampleOf = (row: RouteRow) => (row === TIMEZONEDB_V1_ROW ? "/?key=k&zone=America/Chicago&format=json" : SAMPLES[row.pattern]!);
const rowOf = (pattern: string) => ROWS.find((r) => r.pattern === pattern && r !== TIMEZONEDB_V1_ROW)!;

/** Each client's requests: every row's sample in turn, and the requests that differ by client. */
function mix(c: number, address: string, lang: string): ((n: number) => Ask)[] {
  const zone = (n: number) => ZONES[(c + n) % ZONES.length]!;
  const samples = ROWS.map((row) => () => {
    const sample = sampleOf(row);
    const { path, init } = typeof sample === "string" ? { path: sample, init: {} } : sample;
    // /ip's time object is the caller's; a zone's name on a "live or release" row answers a time object.
    const policy = row.cache.name === "live or release" ? "live" : row.cache.name;
    return { route: row === TIMEZONEDB_V1_ROW ? "/?key= (TimeZoneDB v1)" : row.pattern, row, path, init, headers: {}, policy, clientIp: row.pattern === "/ip" ? address : undefined };
  });
  const byClient: ((n: number) => Ask)[] = [
    (n) => ({ route: "/timezone/{name*}", row: rowOf("/timezone/{name*}"), path: `/timezone/${zone(n)}`, init: {}, headers: {}, policy: "live", clientIp: address }),
    // ...and an area's name on the same row: the names under it.
    (n) => ({ route: "/timezone/{name*} (an area's list)", row: rowOf("/timezone/{name*}"), path: `/${n % 2 ? "api/" : ""}timezone/${zone(n).split("/")[0]}`, init: {}, headers: {}, policy: "release" }),
    () => ({ route: "/ip", row: rowOf("/ip"), path: "/api/ip", init: {}, headers: {}, policy: "live", clientIp: address }),
    (n) => ({ route: "/timezone/{name*}/info", row: rowOf("/timezone/{name*}/info"), path: `/timezone/${zone(n)}/info?lang=${lang}`, init: {}, headers: {}, policy: "until" }),
    // Google's answer in the client's language, named by Accept-Language alone.
    (n) => ({ route: "/maps/api/timezone/json", row: rowOf("/maps/api/timezone/json"), path: `/maps/api/timezone/json?location=${(n % 5) * 10 + 5}.5,${(n % 7) * 20 - 60}.25&timestamp=1700000000&key=k`, init: {}, headers: {}, policy: "release" }),
    // `/`: the home page to a browser, the API's index to a client that takes JSON alone.
    () => ({ route: "/ (the website, or the API's index)", row: null, path: "/", init: {}, headers: { accept: c % 2 === 0 ? "application/json" : "text/html,application/xhtml+xml" }, policy: "release" }),
  ];
  return [...samples, ...byClient];
}

test(`${REQUESTS} requests from ${CLIENTS} clients through Varnish: per-route hit ratios; no client ever got an answer wrong for it`, async () => {
  const release = sourceRelease();
  const origin = new Map<string, Promise<{ status: number; body: string }>>();
  const originAnswer = (a: Ask, headers: Record<string, string>, fresh = false) => {
    const key = `${a.path}|${headers["accept-language"] ?? ""}|${headers.accept ?? ""}|${a.init.method ?? "GET"}`;
    let answer = fresh ? undefined : origin.get(key);
    if (answer === undefined) {
      answer = fetch(`${replicas[0]!.url}${a.path}`, { ...a.init, headers: { ...(a.init.headers as Record<string, string>), ...headers } }).then(async (r) => ({ status: r.status, body: await r.text() }));
      origin.set(key, answer);
    }
    return answer;
  };
  const byRoute = new Map<string, Record<string, number>>();
  const wrong: string[] = [];
  const failures: string[] = [];
  const googleNames = new Map<string, Set<string>>();
  const policies = new Map<string, string>();
  let sent = 0;

  const client = async (c: number) => {
    const address = `${[81, 89, 151, 185, 213][c % 5]}.${60 + c}.${c * 3}.${c + 10}`; // public: /ip locates them
    const lang = LANGUAGES[c % LANGUAGES.length]!;
    // Each client its own header (quality values differ), as browsers send them.
    const acceptLanguage = `${lang},en;q=0.${(c % 8) + 1}`;
    const kinds = mix(c, address, lang);
    for (let n = 0; sent < REQUESTS; n++) {
      sent++;
      const a = kinds[(c * 7 + n) % kinds.length]!(n);
      const headers = { "x-forwarded-for": address, "accept-language": acceptLanguage, ...a.headers };
      try {
        const r = await fetch(`http://127.0.0.1:${varnish.port}${a.path}`, { ...a.init, headers: { ...(a.init.headers as Record<string, string>), ...headers } });
        const body = await r.text();
        const arrived = Date.now() / 1000;
        const cache = r.headers.get("x-cache") ?? "none";
        const row = byRoute.get(a.route) ?? {};
        policies.set(a.route, a.policy);
        row[cache] = (row[cache] ?? 0) + 1;
        row.requests = (row.requests ?? 0) + 1;
        byRoute.set(a.route, row);
        const fromCache = cache === "HIT" || cache === "STALE";
        if (a.path.startsWith("/metrics")) {
          // Refused at the cache, in the service's error shape.
          if (r.status !== 403 || !JSON.parse(body).error) wrong.push(`${a.path}: ${r.status} ${body.slice(0, 80)}`);
          continue;
        }
        if (r.headers.get("x-tzdb-version") !== release) wrong.push(`${a.path} (${cache}): X-Tzdb-Version ${r.headers.get("x-tzdb-version")}`);
        const etag = r.headers.get("etag");
        if (etag?.startsWith('"tz-') && !etag.startsWith(`"tz-${release}-`)) wrong.push(`${a.path} (${cache}): ETag ${etag}`);
        if (fromCache && r.headers.has("ratelimit")) wrong.push(`${a.path} (${cache}): another client's RateLimit`);
        if (a.policy === "live") {
          if (fromCache) wrong.push(`${a.path}: an answer about now or the caller from the cache (${cache})`);
          if (a.row !== null && TIME_OBJECT_ROWS.has(a.row.pattern)) {
            const answer = JSON.parse(body) as { unixtime?: number; client_ip?: string };
            const clientIp = a.clientIp ?? (a.row.pattern === "/ip/{address*}" ? a.path.slice("/ip/".length) : address);
            if (answer.unixtime === undefined || Math.abs(answer.unixtime - arrived) > 2) wrong.push(`${a.path}: unixtime ${answer.unixtime} at ${arrived.toFixed(0)}`);
            if (answer.client_ip !== clientIp) wrong.push(`${a.path} for ${address}: client_ip ${answer.client_ip}`);
          } else if (r.status !== (await originAnswer(a, headers)).status) {
            wrong.push(`${a.path}: ${r.status} ${body.slice(0, 80)}`);
          }
          continue;
        }
        // A shared answer: the replica's for this URL and these headers, now.
        let want = await originAnswer(a, headers);
        if (want.status !== r.status || want.body !== body) want = await originAnswer(a, headers, true);
        if (want.status !== r.status || want.body !== body) wrong.push(`${a.path} (${cache}, ${acceptLanguage}, ${a.headers.accept ?? ""}): not the replica's answer`);
        if (a.route === "/maps/api/timezone/json" && r.status === 200) {
          const names = googleNames.get(a.path) ?? new Set();
          names.add((JSON.parse(body) as { timeZoneName: string }).timeZoneName);
          googleNames.set(a.path, names);
        }
      } catch (error) {
        failures.push(`${a.path}: ${error}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  const seconds = (performance.now() - started) / 1000;

  const total = [...byRoute.values()].reduce((s, row) => s + row.requests!, 0);
  console.log(`varnish: ${total} requests from ${CLIENTS} clients in ${seconds.toFixed(1)} s; wrong answers ${wrong.length}; failures ${failures.length}`);
  const shown = (route: string) => (ROWS.find((r) => r.pattern === route)?.only === "wta" ? `/api${route === "/" ? "" : route}` : route);
  for (const [route, row] of [...byRoute].sort()) {
    const { requests, ...statuses } = row;
    console.log(`  | \`${shown(route)}\` | ${policies.get(route)} | ${requests} | ${(((row.HIT ?? 0) + (row.STALE ?? 0)) / requests! * 100).toFixed(1)}% | ${JSON.stringify(statuses)} |`);
  }
  expect(failures).toEqual([]);
  expect([...new Set(wrong.map((w) => w.replace(/\d+/g, "N")))].slice(0, 20)).toEqual([]); // each kind of wrong answer once
  expect(wrong.length).toBe(0);
  expect(total).toBeGreaterThanOrEqual(REQUESTS);
  // Every row of the table was asked, and the cache did its part: each shared route was served from it.
  expect(ROWS.every((r) => byRoute.has(r === TIMEZONEDB_V1_ROW ? "/?key= (TimeZoneDB v1)" : r.pattern))).toBe(true);
  const sharedWithoutHits = [...byRoute].filter(([route, row]) => policies.get(route) !== "live" && !(row.HIT! > 0)).map(([route]) => route);
  expect(sharedWithoutHits).toEqual([]);
  // The languages really differ (so a mix-up would have been seen): Paris at one instant in 10 languages.
  expect(Math.max(...[...googleNames.values()].map((s) => s.size))).toBeGreaterThanOrEqual(8);
}, 300_000);

test("the VCL's own rules: no grace past an answer's end unless it says stale-while-revalidate; an unmarked answer is not kept", async () => {
  // A backend whose every answer is new (a counter), marked as the path says.
  let count = 0;
  const marks: Record<string, string | null> = {
    "/until": "public, max-age=1, s-maxage=1",
    "/release": "public, max-age=1, s-maxage=1, stale-while-revalidate=30",
    "/unmarked": null,
  };
  const backend = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      const mark = marks[path];
      return new Response(String(++count), { headers: mark ? { "Cache-Control": mark } : {} });
    },
  });
  const cache = await startVarnish([backend.port!, backend.port!]);
  try {
    const get = async (path: string) => {
      const r = await fetch(`http://127.0.0.1:${cache.port}${path}`);
      return { body: await r.text(), cache: r.headers.get("x-cache") };
    };
    const first = { until: await get("/until"), release: await get("/release"), unmarked: await get("/unmarked") };
    expect((await get("/until")).body).toBe(first.until.body); // kept while fresh
    expect((await get("/unmarked")).cache).toBe("PASS");
    await Bun.sleep(2200); // both past their s-maxage
    // Past its end an "until" answer is fetched anew, never served stale (Varnish's default grace is 10 s).
    const until = await get("/until");
    expect({ body: until.body === first.until.body, cache: until.cache }).toEqual({ body: false, cache: "MISS" });
    // A "release" answer is served stale once while it is fetched anew behind it.
    const release = await get("/release");
    expect({ body: release.body === first.release.body, cache: release.cache }).toEqual({ body: true, cache: "STALE" });
  } finally {
    await cache.stop();
    backend.stop(true);
  }
}, 60_000);

test("docs/shared-caches.md runs Varnish as this test does", () => {
  const doc = readFileSync(join(ROOT, "docs", "shared-caches.md"), "utf8");
  expect(doc).toContain(`\`varnishd ${VARNISHD_ARGS.join(" ")} -a :8080\``);
  expect(doc).toContain("test/deploy/varnish-cache.test.ts");
});
