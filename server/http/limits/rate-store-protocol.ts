// The shared rate limit in Redis (RATE_LIMIT_STORE): the one Lua script that decides, the
// key a client's bucket lives under, and the shared-memory protocol between a serving
// thread and its Redis thread (rate-store-thread.ts).
//
// The script keeps the same one number per client as the instance's table (rate-table.ts):
// GCRA's "theoretical arrival time" (TAT), the instant the bucket is full again, and does
// rate-policy.ts's arithmetic on it: a take is admitted while a token is left (TAT - now
// <= window - interval) and charged its whole cost; a charge never refuses. It reads the
// server's own clock (TIME: every replica reads the same clock, whatever its host's), and
// Redis runs it atomically. The key expires when the bucket is full again (after at most
// one window, plus the debt of a costly last answer): a client that stops costs nothing.

import { parseIp } from "../../ip/address.ts";

/** KEYS[1]: the bucket. ARGV: window and interval in microseconds, cost, mode (0 take, 1 charge). Returns {allowed 0|1, TAT - now in microseconds}. */
export const RATE_SCRIPT = `
local window = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local allowed = 1
-- 1 microsecond of tolerance: the stored TAT is whole microseconds.
if ARGV[4] == '0' and tat - now > window - interval + 1 then allowed = 0 end
if allowed == 1 then
  tat = tat + cost * interval
  redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.max(1, math.ceil((tat - now) / 1000)))
end
return {allowed, tat - now}
`;

/**
 * The Redis key of a client's bucket, keyed as the instance's table keys it: IPv4 by
 * address, IPv6 by /64, anything else (an unidentified client behind a proxy) by its
 * text. The policy is part of the key, so replicas rolled to another RATE_LIMIT never
 * share a bucket of another size.
 */
export function bucketKey(prefix: string, key: string): string {
  const address = parseIp(key);
  if (address === null) return `${prefix}k:${key}`;
  if (address.version === 4) return `${prefix}4:${(address.value >>> 0).toString(16)}`;
  const g = address.groups;
  return `${prefix}6:${(((g[0]! << 16) | g[1]!) >>> 0).toString(16)}:${(((g[2]! << 16) | g[3]!) >>> 0).toString(16)}`;
}

export function keyPrefix(burst: number, windowSeconds: number): string {
  return `zonetime:rate:${burst}/${windowSeconds}:`;
}

// The shared memory between a serving thread and its Redis thread: Int32 words, two
// Float64 slots, then the key's bytes.
export const W_STATE = 0; // written by the Redis thread: STORE_DOWN or STORE_UP
export const W_REQUEST = 1; // the serving thread's request number, bumped per request
export const W_ANSWER = 2; // the request number the Redis thread answered last
export const W_OK = 3; // 1: the answer came from Redis; 0: Redis failed it
export const W_ALLOWED = 4;
export const W_KEY_LENGTH = 5;
export const W_MODE = 6; // 0 take, 1 charge
export const F_COST = 4; // Float64 index (bytes 32-39)
export const F_DELTA = 5; // Float64 index (bytes 40-47): the answer's TAT - now, in seconds
export const HEADER_BYTES = 64;
export const MAX_KEY_BYTES = 192;
export const SHARED_BYTES = HEADER_BYTES + MAX_KEY_BYTES;

export const STORE_DOWN = 0;
export const STORE_UP = 1;

/** Messages from the Redis thread to its serving thread (for logs and /health). */
export type StoreEvent = { event: "up" } | { event: "down"; error: string } | { event: "attempt" };
