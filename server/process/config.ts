// Configuration, from the environment, validated once at start: a bad value stops the
// process with a message that names the variable. Every variable is documented in the
// README's Configuration table.

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR } from "./default-paths.ts";
import { parsePublicHosts } from "../http/bun/https-redirect.ts";
import { DEFAULT_ANSWER_CACHE_BYTES } from "../http/pipeline/api-data.ts";
import type { RateLimitConfig } from "../http/limits/rate-limiter.ts";
import { parseCidrList, type Cidr } from "../ip/cidr.ts";

export interface Config {
  port: number;
  /** null: every interface, IPv6 and IPv4, falling back to IPv4 alone. */
  host: string | null;
  workers: number;
  tls: { certFile: string; keyFile: string } | null;
  httpRedirectPort: number | null;
  /**
   * The names the service is reached by (PUBLIC_HOSTS), the first canonical: the plain-HTTP
   * port redirects only to these, never to whatever Host a request carries.
   */
  publicHosts: string[];
  trustedProxies: Cidr[];
  /** The one header the trusted proxies write (TRUST_PROXY_HEADER), lower case. */
  trustProxyHeader: string;
  rateLimit: RateLimitConfig | null;
  /** RATE_LIMIT_STORE: a redis:// or rediss:// URL whose Redis holds one bucket per client for every instance. */
  rateLimitStore: string | null;
  /** How long a request may wait for the store's answer before this instance decides alone. */
  rateLimitStoreTimeoutMs: number;
  /** ANSWER_CACHE_BYTES: the budget of each worker's cache of encoded cacheable answers. */
  answerCacheBytes: number;
  accessLog: boolean;
  dataDir: string;
  /** The built website (site/dist); when absent, only the API is served. */
  siteDir: string;
  /** How long a draining process waits for in-flight requests before it stops anyway. */
  drainSeconds: number;
  /**
   * How long a draining process keeps listening, answering with `Connection: close`,
   * before it stops accepting: keep-alive connections then end on an answer of ours,
   * never cut while a request is on its way (see docs/operations.md, "Restarts without errors").
   */
  drainGraceMs: number;
  /**
   * SHARE_PORT: join a port another instance started with it too listens on, so that it
   * can take over the port (a rolling restart on one host). Off, a port something else
   * holds is refused at start (the port is bound with reusePort all the same: the drain's
   * sink needs its group, ops/syn-sink.ts); the workers of one instance always share theirs.
   */
  sharePort: boolean;
}

export class ConfigError extends Error {}

/** Every variable the service reads (IP_SOURCE and SITE_URL at build time); the README documents each. */
export const CONFIG_VARIABLES = [
  "PORT", "HOST", "WORKERS", "TLS_CERT", "TLS_KEY", "HTTP_REDIRECT_PORT", "PUBLIC_HOSTS", "TRUST_PROXY", "TRUST_PROXY_HEADER",
  "RATE_LIMIT", "ANSWER_CACHE_BYTES", "RATE_LIMIT_STORE", "RATE_LIMIT_STORE_TIMEOUT_MS", "ACCESS_LOG", "DATA_DIR", "SITE_DIR", "DRAIN_SECONDS", "DRAIN_GRACE_MS", "SHARE_PORT", "IP_SOURCE", "SITE_URL",
] as const;

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not "${env[name]}"`);
  }
  return Number(text);
}

function flag(env: Env, name: string): boolean {
  const text = (env[name] ?? "off").trim().toLowerCase();
  if (text === "on" || text === "true" || text === "1") return true;
  if (text === "off" || text === "false" || text === "0" || text === "") return false;
  throw new ConfigError(`${name} must be "on" or "off", not "${env[name]}"`);
}

export const DEFAULT_RATE_LIMIT = "120/60s";

function rateLimit(env: Env): RateLimitConfig | null {
  const text = (env.RATE_LIMIT?.trim() || DEFAULT_RATE_LIMIT).toLowerCase();
  if (text === "off") return null;
  const m = /^(\d{1,7})\/(\d{1,6})?(s|m|h)$/.exec(text);
  const units = { s: 1, m: 60, h: 3600 } as const;
  if (!m || Number(m[1]) < 1 || m[2] === "0") {
    throw new ConfigError(`RATE_LIMIT must be "off" or requests per window such as "120/60s", "1000/1h", not "${env.RATE_LIMIT}"`);
  }
  const burst = Number(m[1]);
  const windowSeconds = Number(m[2] ?? 1) * units[m[3] as keyof typeof units];
  return { burst, windowSeconds, policy: `"default";q=${burst};w=${windowSeconds}` };
}

/** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS; checked here so that a typo stops the start. */
function rateLimitStore(env: Env, limit: RateLimitConfig | null): string | null {
  const text = env.RATE_LIMIT_STORE?.trim();
  if (!text) return null;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {}
  // The URL may carry a password: the message names the variable, never repeats its value.
  if (url === null || (url.protocol !== "redis:" && url.protocol !== "rediss:") || url.hostname === "" || !/^(\/\d{0,2})?$/.test(url.pathname) || url.search !== "" || url.hash !== "") {
    throw new ConfigError('RATE_LIMIT_STORE must be a Redis URL: "redis://host:port" or "redis://host:port/db" ("rediss://" for TLS)');
  }
  if (limit === null) throw new ConfigError("RATE_LIMIT_STORE shares the rate limit across instances, so it needs RATE_LIMIT (not off)");
  return text;
}

const DEFAULT_TRUST_PROXY_HEADER = "x-forwarded-for";

/** The header the trusted proxy writes: one name, as nginx's real_ip_header takes one. */
function trustProxyHeader(env: Env, proxies: readonly Cidr[]): string {
  const text = env.TRUST_PROXY_HEADER?.trim();
  if (!text) return DEFAULT_TRUST_PROXY_HEADER;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(text)) {
    throw new ConfigError(`TRUST_PROXY_HEADER must be one header name such as "X-Forwarded-For", "Forwarded" or "X-Real-IP", not "${text}"`);
  }
  if (proxies.length === 0) throw new ConfigError("TRUST_PROXY_HEADER names the header of a trusted proxy, so it needs TRUST_PROXY");
  return text.toLowerCase();
}

function file(env: Env, name: string): string | null {
  const path = env[name]?.trim();
  if (!path) return null;
  if (!existsSync(path)) throw new ConfigError(`${name}: ${path} does not exist`);
  return path;
}

export function readConfig(env: Env = process.env): Config {
  const host = env.HOST?.trim() || null;
  if (host !== null && !/^[0-9A-Za-z.:_-]{1,255}$/.test(host)) throw new ConfigError(`HOST is not an address or host name: "${host}"`);
  const certFile = file(env, "TLS_CERT");
  const keyFile = file(env, "TLS_KEY");
  if ((certFile === null) !== (keyFile === null)) throw new ConfigError("TLS_CERT and TLS_KEY must be set together (HTTPS needs both)");
  const redirect = env.HTTP_REDIRECT_PORT?.trim() ? integer(env, "HTTP_REDIRECT_PORT", 0, 1, 65535) : null;
  if (redirect !== null && certFile === null) throw new ConfigError("HTTP_REDIRECT_PORT redirects to HTTPS, so it needs TLS_CERT and TLS_KEY");
  const publicHosts = parsePublicHosts(env.PUBLIC_HOSTS ?? "");
  if ("bad" in publicHosts) throw new ConfigError(`PUBLIC_HOSTS: "${publicHosts.bad}" is not a host name or an IP address`);
  if (redirect !== null && publicHosts.hosts.length === 0) {
    throw new ConfigError("HTTP_REDIRECT_PORT needs PUBLIC_HOSTS: the names to redirect to (the first is canonical), never the Host a request sends");
  }
  const proxies = parseCidrList(env.TRUST_PROXY ?? "");
  if ("bad" in proxies) {
    throw new ConfigError(`TRUST_PROXY: "${proxies.bad}" is not an address, a CIDR, "loopback" or "private"`);
  }
  const limit = rateLimit(env);
  return {
    port: integer(env, "PORT", 8080, 0, 65535),
    host: host === "::" ? null : host,
    workers: integer(env, "WORKERS", availableParallelism(), 1, 256),
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    httpRedirectPort: redirect,
    publicHosts: publicHosts.hosts,
    trustedProxies: proxies.cidrs,
    trustProxyHeader: trustProxyHeader(env, proxies.cidrs),
    rateLimit: limit,
    rateLimitStore: rateLimitStore(env, limit),
    rateLimitStoreTimeoutMs: integer(env, "RATE_LIMIT_STORE_TIMEOUT_MS", 5, 1, 1000),
    answerCacheBytes: integer(env, "ANSWER_CACHE_BYTES", DEFAULT_ANSWER_CACHE_BYTES, 0, 1024 * 1024 * 1024),
    accessLog: flag(env, "ACCESS_LOG"),
    dataDir: env.DATA_DIR?.trim() || DEFAULT_DATA_DIR,
    siteDir: env.SITE_DIR?.trim() || DEFAULT_SITE_DIR,
    drainSeconds: integer(env, "DRAIN_SECONDS", 10, 0, 3600),
    drainGraceMs: integer(env, "DRAIN_GRACE_MS", 1000, 0, 60_000),
    sharePort: flag(env, "SHARE_PORT"),
  };
}
