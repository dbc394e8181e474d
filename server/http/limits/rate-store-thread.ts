// The Redis thread of a serving process (RATE_LIMIT_STORE): it holds the connection
// (Bun's built-in client), runs the rate script for each request the serving thread
// posts in shared memory, and reconnects with capped, jittered backoff when Redis goes away
// (reconnect-backoff.ts), telling the serving thread of each attempt (counted in /metrics).
//
// It runs beside the serving thread so that the fetch handler stays synchronous: the
// serving thread waits for the answer with Atomics.wait and a deadline of a few ms. An
// async answer would cost more than the wait: Bun 1.4 closes a connection with 0 bytes
// when a pipelined request arrives while an async response is pending.

import {
  F_COST, F_DELTA, HEADER_BYTES, MAX_KEY_BYTES, RATE_SCRIPT, STORE_DOWN, STORE_UP, W_ALLOWED, W_ANSWER, W_KEY_LENGTH, W_MODE, W_OK,
  W_REQUEST, W_STATE, type StoreEvent,
} from "./rate-store-protocol.ts";
import { reconnectDelayMs } from "./reconnect-backoff.ts";

declare const self: Worker;

interface Start {
  url: string;
  memory: SharedArrayBuffer;
  burst: number;
  windowSeconds: number;
}

// ES2024's Atomics.waitAsync, which Bun has and this TypeScript lib does not declare.
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;

const start = await new Promise<Start>((resolve) => (self.onmessage = (e: MessageEvent<Start>) => resolve(e.data)));
const words = new Int32Array(start.memory, 0, HEADER_BYTES / 4);
const floats = new Float64Array(start.memory, 0, HEADER_BYTES / 8);
const keyBytes = new Uint8Array(start.memory, HEADER_BYTES, MAX_KEY_BYTES);
const decoder = new TextDecoder();
const windowMicros = String(start.windowSeconds * 1e6);
const intervalMicros = String((start.windowSeconds * 1e6) / start.burst);

let client: Bun.RedisClient | null = null;
let sha = "";
/** Attempts to connect that failed since the last success: the backoff's step. */
let failures = 0;
let up = false;

function report(event: StoreEvent): void {
  postMessage(event);
}

let toldReason = "";

function setState(next: boolean, error = ""): void {
  // Still down, for a reason not told yet (a first connection that never succeeds: a wrong
  // password, a refused port): told too, so the log says why.
  if (next === up && (next || error === toldReason)) return;
  toldReason = next ? "" : error;
  up = next;
  Atomics.store(words, W_STATE, next ? STORE_UP : STORE_DOWN);
  report(next ? { event: "up" } : { event: "down", error });
}

async function connect(): Promise<void> {
  report({ event: "attempt" });
  const c = new Bun.RedisClient(start.url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 2000 });
  c.onclose = (error) => {
    if (client !== c) return;
    client = null;
    setState(false, error?.message ?? "connection closed");
    schedule();
  };
  try {
    await c.connect();
    sha = await c.send("SCRIPT", ["LOAD", RATE_SCRIPT]);
  } catch (error) {
    c.onclose = null;
    c.close();
    const message = (error as Error).message;
    const said = await redisRefusal(start.url);
    setState(false, said === null ? message : `${message}: Redis said "${said}"`);
    failures++;
    schedule();
    return;
  }
  client = c;
  failures = 0;
  setState(true);
}

/**
 * Redis's own words for refusing us (`WRONGPASS ...`, `NOAUTH ...`), asked over a plain
 * socket: Bun's client closes on a failed AUTH and reports only "Connection closed". The
 * password is sent, never returned or logged; null when Redis says nothing useful.
 */
async function redisRefusal(url: string): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const args = password === "" ? ["PING"] : user === "" ? ["AUTH", password] : ["AUTH", user, password];
  const command = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`;
  return new Promise((resolve) => {
    let text = "";
    const done = (value: string | null) => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => done(null), 1000);
    Bun.connect({
      hostname: target.hostname.replace(/^\[|\]$/g, ""), port: Number(target.port || 6379), tls: target.protocol === "rediss:" ? true : undefined,
      socket: {
        open: (socket) => void socket.write(command),
        data: (socket, data) => {
          text += data.toString();
          const end = text.indexOf("\r\n");
          if (end < 0) return;
          done(text.startsWith("-") ? text.slice(1, end) : null); // before end(): it calls close() at once
          socket.end();
        },
        close: () => done(null),
        error: () => done(null),
      },
    }).catch(() => done(null));
  });
}

function schedule(): void {
  setTimeout(() => void connect(), reconnectDelayMs(failures));
}

function answer(request: number, ok: boolean, reply?: [number, number]): void {
  // A request the serving thread gave up on is answered too: it waits for its own number only.
  Atomics.store(words, W_OK, ok ? 1 : 0);
  if (reply) {
    Atomics.store(words, W_ALLOWED, reply[0]);
    floats[F_DELTA] = reply[1] / 1e6;
  }
  // The store below publishes the plain write above (seq-cst).
  Atomics.store(words, W_ANSWER, request);
  Atomics.notify(words, W_ANSWER);
}

async function decide(request: number, key: string, cost: string, mode: string): Promise<void> {
  const c = client;
  if (c === null) return answer(request, false);
  try {
    let reply: [number, number];
    try {
      reply = await c.send("EVALSHA", [sha, "1", key, windowMicros, intervalMicros, cost, mode]);
    } catch (error) {
      // A Redis restarted since we loaded the script has forgotten it.
      if (!String((error as Error).message).includes("NOSCRIPT")) throw error;
      sha = await c.send("SCRIPT", ["LOAD", RATE_SCRIPT]);
      reply = await c.send("EVALSHA", [sha, "1", key, windowMicros, intervalMicros, cost, mode]);
    }
    answer(request, true, reply);
  } catch {
    answer(request, false);
  }
}

void connect();
let seen = Atomics.load(words, W_REQUEST);
for (;;) {
  const waiting = waitAsync(words, W_REQUEST, seen);
  if (waiting.async) await waiting.value;
  const request = Atomics.load(words, W_REQUEST);
  if (request === seen) continue;
  seen = request;
  // The key and cost are the latest request's: the serving thread writes them before it bumps the number.
  const key = decoder.decode(keyBytes.subarray(0, Atomics.load(words, W_KEY_LENGTH)));
  const cost = String(floats[F_COST]);
  const mode = String(Atomics.load(words, W_MODE));
  if (Atomics.load(words, W_REQUEST) !== request) continue; // overwritten by a newer one meanwhile
  void decide(request, key, cost, mode);
}
