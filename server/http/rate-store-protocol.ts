// The shared rate limit in Redis (RATE_LIMIT_STORE): the one Lua script that decides, the
// key a client's bucket lives under, and the shared-memory protocol between a serving
// thread and its Redis thread (rate-store-thread.ts).
//
// The script keeps the local limiter's token bucket (rate-limiter.ts) in one number, the
// bucket's "theoretical arrival time" (GCRA): the instant at which it would be full
// again. Tokens now = burst - (tat - now) / interval. So a decision is one GET, one SET
// and the server's own clock (TIME: every replica reads the same clock, whatever its
// host's), run atomically by Redis; the key expires when the bucket is full again, which
// is at most one window after its last use: a client that stops costs nothing after that.

import { parseIp } from "../ip/address.ts";

/** KEYS[1]: the bucket. ARGV: burst, window in microseconds, cost. Returns {allowed 0|1, remaining, reset seconds}. */
export const RATE_SCRIPT = `
local burst = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local interval = window / burst
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0) or 0
if tat < now then tat = now end
local tokens = burst - (tat - now) / interval
local allowed = 0
-- 1e-6 token: the stored instant is whole microseconds, so an interval such as 60 s / 7 rounds.
if tokens + 1e-6 >= cost then
  allowed = 1
  tat = tat + cost * interval
  tokens = tokens - cost
  redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.max(1, math.ceil((tat - now) / 1000)))
end
local remaining = math.floor(tokens + 1e-6)
local reset = 0
if tokens + 1e-6 < burst then
  reset = math.max(1, math.ceil((remaining + 1 - tokens) * interval / 1000000 - 1e-6))
end
return {allowed, remaining, reset}
`;

/**
 * The Redis key of a client's bucket, or null for a client the limit never applies to
 * (loopback), as the local limiter keys it: IPv4 by address, IPv6 by /64, anything else
 * (an unidentified client behind a proxy) by its text. The policy is part of the key, so
 * replicas rolled to another RATE_LIMIT never share a bucket of another size.
 */
export function bucketKey(prefix: string, key: string): string | null {
  const address = parseIp(key);
  if (address === null) return `${prefix}k:${key}`;
  if (address.version === 4) return address.value >>> 24 === 127 ? null : `${prefix}4:${(address.value >>> 0).toString(16)}`;
  const g = address.groups;
  if (g[7] === 1 && g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0 && g[6] === 0) return null; // ::1
  return `${prefix}6:${(((g[0]! << 16) | g[1]!) >>> 0).toString(16)}:${(((g[2]! << 16) | g[3]!) >>> 0).toString(16)}`;
}

export function keyPrefix(burst: number, windowSeconds: number): string {
  return `zonetime:rate:${burst}/${windowSeconds}:`;
}

// The shared memory between a serving thread and its Redis thread: Int32 words, then the key's bytes.
export const W_STATE = 0; // written by the Redis thread: STORE_DOWN or STORE_UP
export const W_REQUEST = 1; // the serving thread's request number, bumped per request
export const W_ANSWER = 2; // the request number the Redis thread answered last
export const W_OK = 3; // 1: the answer below came from Redis; 0: Redis failed it
export const W_ALLOWED = 4;
export const W_REMAINING = 5;
export const W_RESET = 6;
export const W_KEY_LENGTH = 7;
export const W_COST = 8; // a cost in thousandths of a token
export const HEADER_BYTES = 64;
export const MAX_KEY_BYTES = 192;
export const SHARED_BYTES = HEADER_BYTES + MAX_KEY_BYTES;

export const STORE_DOWN = 0;
export const STORE_UP = 1;

/** Messages from the Redis thread to its serving thread (for logs and /health). */
export type StoreEvent = { event: "up" } | { event: "down"; error: string };
