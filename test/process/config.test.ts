// Every configuration variable: its default, a good value, and a bad one refused with a
// message that names it.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, readConfig } from "../../server/process/config.ts";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR } from "../../server/process/default-paths.ts";

const refused = (env: Record<string, string>) => {
  try {
    readConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe("configuration", () => {
  test("defaults", () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      port: 8080, host: null, workers: availableParallelism(), tls: null, httpRedirectPort: null, trustedProxies: [],
      rateLimit: { burst: 120, windowSeconds: 60, policy: '"default";q=120;w=60' }, accessLog: false, dataDir: DEFAULT_DATA_DIR, siteDir: DEFAULT_SITE_DIR,
      drainSeconds: 10, drainGraceMs: 1000, trustProxyHeader: "x-forwarded-for", sharePort: false,
    });
  });
  test("PORT", () => {
    expect(readConfig({ PORT: "9000" }).port).toBe(9000);
    expect(refused({ PORT: "http" })).toBe('PORT must be an integer from 0 to 65535, not "http"');
    expect(refused({ PORT: "70000" })).toContain("PORT must be an integer");
  });
  test("HOST", () => {
    expect(readConfig({ HOST: "127.0.0.1" }).host).toBe("127.0.0.1");
    expect(readConfig({ HOST: "::" }).host).toBeNull();
    expect(refused({ HOST: "a b" })).toBe('HOST is not an address or host name: "a b"');
  });
  test("WORKERS", () => {
    expect(readConfig({ WORKERS: "1" }).workers).toBe(1);
    expect(refused({ WORKERS: "0" })).toBe('WORKERS must be an integer from 1 to 256, not "0"');
  });
  test("TLS_CERT and TLS_KEY", () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-config-"));
    writeFileSync(join(dir, "c.pem"), "x");
    writeFileSync(join(dir, "k.pem"), "x");
    expect(readConfig({ TLS_CERT: join(dir, "c.pem"), TLS_KEY: join(dir, "k.pem") }).tls).toEqual({ certFile: join(dir, "c.pem"), keyFile: join(dir, "k.pem") });
    expect(refused({ TLS_CERT: join(dir, "c.pem") })).toBe("TLS_CERT and TLS_KEY must be set together (HTTPS needs both)");
    expect(refused({ TLS_CERT: "/nope.pem", TLS_KEY: join(dir, "k.pem") })).toBe("TLS_CERT: /nope.pem does not exist");
  });
  test("HTTP_REDIRECT_PORT", () => {
    expect(refused({ HTTP_REDIRECT_PORT: "8081" })).toBe("HTTP_REDIRECT_PORT redirects to HTTPS, so it needs TLS_CERT and TLS_KEY");
    expect(refused({ HTTP_REDIRECT_PORT: "x" })).toContain("HTTP_REDIRECT_PORT must be an integer");
  });
  test("PUBLIC_HOSTS: names and addresses, normalised; required by HTTP_REDIRECT_PORT", () => {
    expect(readConfig({}).publicHosts).toEqual([]);
    expect(readConfig({ PUBLIC_HOSTS: " Time.Example.org., api.example.org,203.0.113.5, [2001:DB8::1] ,time.example.org" }).publicHosts)
      .toEqual(["time.example.org", "api.example.org", "203.0.113.5", "[2001:db8::1]"]);
    for (const bad of ["exa mple.org", "-x.example.org", "https://example.org", "example.org:443", "999.1.1.1", "[::g]", "a..b", `${"a".repeat(64)}.org`]) {
      expect(refused({ PUBLIC_HOSTS: `example.org,${bad}` })).toBe(`PUBLIC_HOSTS: "${bad}" is not a host name or an IP address`);
    }
    const dir = mkdtempSync(join(tmpdir(), "zonetime-config-"));
    writeFileSync(join(dir, "c.pem"), "x");
    writeFileSync(join(dir, "k.pem"), "x");
    const tls = { TLS_CERT: join(dir, "c.pem"), TLS_KEY: join(dir, "k.pem"), HTTP_REDIRECT_PORT: "8081" };
    expect(refused(tls)).toBe("HTTP_REDIRECT_PORT needs PUBLIC_HOSTS: the names to redirect to (the first is canonical), never the Host a request sends");
    expect(readConfig({ ...tls, PUBLIC_HOSTS: "time.example.org" })).toMatchObject({ httpRedirectPort: 8081, publicHosts: ["time.example.org"] });
  });
  test("TRUST_PROXY", () => {
    expect(readConfig({ TRUST_PROXY: "loopback" }).trustedProxies.map((c) => c.text)).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(readConfig({ TRUST_PROXY: "10.0.0.0/8, 2001:db8::1" }).trustedProxies.map((c) => c.prefix)).toEqual([8, 128]);
    expect(refused({ TRUST_PROXY: "10.0.0.0/33" })).toBe('TRUST_PROXY: "10.0.0.0/33" is not an address, a CIDR, "loopback" or "private"');
  });
  test("TRUST_PROXY_HEADER", () => {
    expect(readConfig({ TRUST_PROXY: "loopback" }).trustProxyHeader).toBe("x-forwarded-for");
    expect(readConfig({ TRUST_PROXY: "loopback", TRUST_PROXY_HEADER: "Forwarded" }).trustProxyHeader).toBe("forwarded");
    expect(readConfig({ TRUST_PROXY: "private", TRUST_PROXY_HEADER: "X-Real-IP" }).trustProxyHeader).toBe("x-real-ip");
    expect(refused({ TRUST_PROXY: "loopback", TRUST_PROXY_HEADER: "X-Forwarded-For, Forwarded" })).toBe(
      'TRUST_PROXY_HEADER must be one header name such as "X-Forwarded-For", "Forwarded" or "X-Real-IP", not "X-Forwarded-For, Forwarded"');
    expect(refused({ TRUST_PROXY_HEADER: "Forwarded" })).toBe("TRUST_PROXY_HEADER names the header of a trusted proxy, so it needs TRUST_PROXY");
  });
  test("SHARE_PORT", () => {
    expect(readConfig({}).sharePort).toBe(false);
    expect(readConfig({ SHARE_PORT: "on" }).sharePort).toBe(true);
    expect(refused({ SHARE_PORT: "yes" })).toBe('SHARE_PORT must be "on" or "off", not "yes"');
  });
  test("RATE_LIMIT", () => {
    expect(readConfig({ RATE_LIMIT: "off" }).rateLimit).toBeNull();
    expect(readConfig({ RATE_LIMIT: "1000/1h" }).rateLimit).toEqual({ burst: 1000, windowSeconds: 3600, policy: '"default";q=1000;w=3600' });
    expect(readConfig({ RATE_LIMIT: "10/s" }).rateLimit).toEqual({ burst: 10, windowSeconds: 1, policy: '"default";q=10;w=1' });
    expect(refused({ RATE_LIMIT: "lots" })).toContain('RATE_LIMIT must be "off" or requests per window such as "120/60s"');
    expect(refused({ RATE_LIMIT: "0/60s" })).toContain("RATE_LIMIT");
  });
  test("ANSWER_CACHE_BYTES", () => {
    expect(readConfig({}).answerCacheBytes).toBe(4 * 1024 * 1024);
    expect(readConfig({ ANSWER_CACHE_BYTES: "0" }).answerCacheBytes).toBe(0);
    expect(readConfig({ ANSWER_CACHE_BYTES: "65536" }).answerCacheBytes).toBe(65536);
    expect(refused({ ANSWER_CACHE_BYTES: "4MB" })).toBe('ANSWER_CACHE_BYTES must be an integer from 0 to 1073741824, not "4MB"');
  });
  test("ACCESS_LOG", () => {
    expect(readConfig({ ACCESS_LOG: "on" }).accessLog).toBe(true);
    expect(refused({ ACCESS_LOG: "maybe" })).toBe('ACCESS_LOG must be "on" or "off", not "maybe"');
  });
  test("DATA_DIR, SITE_DIR, DRAIN_SECONDS, DRAIN_GRACE_MS", () => {
    expect(readConfig({ DATA_DIR: "/srv/tables" }).dataDir).toBe("/srv/tables");
    expect(readConfig({ SITE_DIR: "/srv/site" }).siteDir).toBe("/srv/site");
    expect(refused({ DRAIN_SECONDS: "-1" })).toContain("DRAIN_SECONDS must be an integer");
    expect(refused({ DRAIN_GRACE_MS: "soon" })).toContain("DRAIN_GRACE_MS must be an integer");
  });
  test("the service refuses to start on a bad variable and names it", async () => {
    const child = Bun.spawn(["bun", join(import.meta.dir, "..", "..", "server", "process", "main.ts")], {
      env: { ...process.env, PORT: "eighty" }, stdout: "pipe", stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect(code).toBe(1);
    expect(JSON.parse(stderr.trim().split("\n").pop()!)).toMatchObject({ event: "bad_configuration", error: 'PORT must be an integer from 0 to 65535, not "eighty"' });
  }, 30_000);
});
