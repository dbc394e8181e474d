// A shared cache in front (server/deploy/nginx-cache.conf: nginx's proxy_cache, a CDN's
// part on one host) over two replicas, and a replayed mix of 100,000 requests from 50
// clients, each with its own address and language. Printed: the hit ratio of every route.
// Asserted: no answer any client got was wrong for that client. A time object (no-store) is
// live (its unixtime within 2 s of the clock when it arrived) and names the caller's address
// in client_ip (or the address asked about); a cacheable answer is byte for byte what a
// replica answers for that URL (so ?lang= gave the language asked for); and no answer marked
// no-store was ever served from the cache.
//
// The clients' addresses: each sends X-Forwarded-For, which this nginx believes from
// loopback (realip, as a CDN's edge knows its client), so the replicas see 50 clients.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startNginx } from "../support/nginx.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { ROOT } from "../support/test-server.ts";

const CACHE_CONF = join(ROOT, "server", "deploy", "nginx-cache.conf");
const REQUESTS = 100_000;
const CLIENTS = 50;
const LANGUAGES = ["en", "fr", "de", "ja", "es", "pt-BR", "zh-Hant", "ar", "ru", "hi"];
const ZONES = ["Europe/London", "America/New_York", "Asia/Kathmandu", "America/Havana", "Australia/Lord_Howe", "Europe/Dublin", "Africa/Casablanca", "Pacific/Apia", "America/Sao_Paulo", "Asia/Tokyo"];

let replicas: ServerProcess[] = [];
let nginx: Awaited<ReturnType<typeof startNginx>>;
let cacheDir = "";

beforeAll(async () => {
  replicas = await Promise.all([0, 1].map(() => startServerProcess({ RATE_LIMIT: "off", TRUST_PROXY: "loopback" })));
  nginx = await startNginx(replicas.map((r) => r.port), {
    file: CACHE_CONF,
    edit: (text, dir) => {
      cacheDir = join(dir, "cache");
      mkdirSync(cacheDir);
      // The cache folder is the test's own (private to this user): the workers run as the test does.
      const user = process.getuid?.() === 0 ? "user root;\n" : "";
      return user + text.replace("/var/cache/zonetime", cacheDir)
        .replace("access_log off;", "access_log off;\n    set_real_ip_from 127.0.0.1;\n    real_ip_header X-Forwarded-For;");
    },
  });
}, 240_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

interface Ask { route: string; path: string; live: boolean; clientIp?: string }

/** Request `n` of client `c`: the mix (a third time objects and /ip, the rest cacheable lists, /info, /convert, /transitions). */
function ask(c: number, n: number, address: string, lang: string): Ask {
  const zone = ZONES[(c * 7 + n) % ZONES.length]!;
  switch (n % 12) {
    case 0: return { route: "/timezone/{name}", path: `/timezone/${zone}`, live: true, clientIp: address };
    case 1: return { route: "/ip", path: "/ip", live: true, clientIp: address };
    case 2: return { route: "/ip/{address}", path: `/ip/8.8.${c % 4}.8`, live: true, clientIp: `8.8.${c % 4}.8` };
    case 3: return { route: "/api/timezone/{name}", path: `/api/timezone/${zone}`, live: true, clientIp: address };
    case 4: return { route: "/timezone", path: "/timezone", live: false };
    case 5: return { route: "/timezone/{area}", path: `/timezone/${zone.split("/")[0]}`, live: false };
    case 6: case 7: return { route: "/timezone/{name}/info?lang=", path: `/timezone/${zone}/info?lang=${lang}`, live: false };
    case 8: return { route: "/timezone/{name}/transitions", path: `/timezone/${zone}/transitions?from=2026-01-01T00:00:00Z&to=2028-01-01T00:00:00Z`, live: false };
    case 9: return { route: "/convert", path: `/convert?time=2026-03-29T01:30:00&from=${zone}&to=Asia/Tokyo`, live: false };
    case 10: return { route: "/openapi.json", path: "/openapi.json", live: false };
    default: return { route: "/coordinates/{point}", path: `/coordinates/${(c % 60) - 30}.5,${((c * 7) % 300) - 150}.25`, live: true, clientIp: address };
  }
}

test(`${REQUESTS} requests from ${CLIENTS} clients through the shared cache: per-route hit ratios; no client ever got an answer wrong for it`, async () => {
  const origin = new Map<string, Promise<string>>();
  const originBody = (path: string) => {
    let body = origin.get(path);
    if (body === undefined) origin.set(path, (body = fetch(`${replicas[0]!.url}${path}`).then((r) => r.text())));
    return body;
  };
  const byRoute = new Map<string, Record<string, number>>();
  const wrong: string[] = [];
  const failures: string[] = [];
  let sent = 0;
  const client = async (c: number) => {
    const address = `${[81, 89, 151, 185, 213][c % 5]}.${60 + c}.${c * 3}.${c + 10}`; // public: /ip locates them
    const lang = LANGUAGES[c % LANGUAGES.length]!;
    for (let n = 0; sent < REQUESTS; n++) {
      sent++;
      const a = ask(c, n, address, lang);
      try {
        const r = await fetch(`http://127.0.0.1:${nginx.port}${a.path}`, { headers: { "x-forwarded-for": address, "accept-language": lang } });
        const body = await r.text();
        const arrived = Date.now() / 1000;
        const cache = r.headers.get("x-cache-status") ?? "none";
        const row = byRoute.get(a.route) ?? {};
        row[cache] = (row[cache] ?? 0) + 1;
        row.requests = (row.requests ?? 0) + 1;
        byRoute.set(a.route, row);
        if (r.status !== 200) {
          wrong.push(`${a.path}: ${r.status} ${body.slice(0, 100)}`);
          continue;
        }
        if (a.live) {
          if (cache === "HIT" || cache === "STALE" || cache === "UPDATING") wrong.push(`${a.path}: a live answer from the cache (${cache})`);
          const answer = JSON.parse(body) as { unixtime?: number; client_ip?: string };
          if (answer.unixtime === undefined || Math.abs(answer.unixtime - arrived) > 2) wrong.push(`${a.path}: unixtime ${answer.unixtime} at ${arrived.toFixed(0)}`);
          if (answer.client_ip !== a.clientIp) wrong.push(`${a.path} for ${address}: client_ip ${answer.client_ip}`);
        } else if (body !== await originBody(a.path)) {
          wrong.push(`${a.path} (${cache}): not the replica's answer`);
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
  console.log(`shared cache: ${total} requests from ${CLIENTS} clients in ${seconds.toFixed(1)} s; wrong answers ${wrong.length}; failures ${failures.length}`);
  for (const [route, row] of [...byRoute].sort()) {
    const { requests, ...statuses } = row;
    console.log(`  ${route}: ${requests} requests, hit ratio ${(((row.HIT ?? 0) / requests!) * 100).toFixed(1)}% ${JSON.stringify(statuses)}`);
  }
  expect(failures).toEqual([]);
  expect([...new Set(wrong.map((w) => w.replace(/\d+/g, "N")))].slice(0, 20)).toEqual([]); // each kind of wrong answer once
  expect(wrong.length).toBe(0);
  expect(total).toBeGreaterThanOrEqual(REQUESTS);
  // The cache did its part: every cacheable route was served from it, no live one ever.
  for (const [route, row] of byRoute) {
    const live = ["/timezone/{name}", "/ip", "/ip/{address}", "/api/timezone/{name}", "/coordinates/{point}"].includes(route);
    expect({ route, hits: (row.HIT ?? 0) > 0 }).toEqual({ route, hits: !live });
  }
}, 300_000);
