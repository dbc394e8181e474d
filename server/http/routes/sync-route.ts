// `/sync?t0=T`: NTP's on-wire timestamps over HTTP, so a client can measure its clock's
// offset from ours (offset = ((t1 - t0) + (t2 - t3)) / 2, delay = (t3 - t0) - (t2 - t1),
// RFC 5905 section 8). t1 is read first thing in this handler, t2 last before the body is
// made, both from the serving clock (core/clock.ts: the system's realtime clock, real
// microseconds) and both as unix milliseconds with three fraction digits. t0 is the
// client's own send time, echoed byte for byte (or null), so a client may stay stateless.
//
// This answer IS the clock, so it is never a wrong one: the reading for t2 goes through
// the same check /health makes (ops/clock-check.ts), and a diverged clock answers 503.

import type { Instant } from "../../core/clock.ts";
import type { AppState } from "../contract.ts";
import { badRequest, HttpError } from "../pipeline/http-errors.ts";
import { queryParam } from "../params/query.ts";
import type { RouteRequest } from "../contract.ts";

/**
 * Unix milliseconds, up to three fraction digits, no sign, exponent or leading zero: a JSON
 * number as written, so echoing the text keeps the body valid JSON. Up to 15 integer
 * digits (year 9999 is 253402300799999 ms).
 */
const T0 = /^(?:0|[1-9]\d{0,14})(?:\.\d{1,3})?$/;
const MAX_T0_LENGTH = 19;

const invalidT0 = () =>
  badRequest("bad_t0", "invalid t0: your send time in unix milliseconds with up to three fraction digits, such as 1795219200123.456");

/** `t0` as the text to echo, or "null" when absent. */
function t0Text(query: string): string {
  const text = queryParam(query, "t0");
  if (text === undefined) return "null";
  // Length first: a 10 KB value never reaches the pattern.
  if (text === null || text.length > MAX_T0_LENGTH || !T0.test(text)) throw invalidT0();
  return text;
}

const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));

/** Unix milliseconds with three fraction digits (microseconds), by integer arithmetic. */
export function unixMillisText(t: Instant): string {
  const ms = Math.floor(t.micros / 1000);
  return `${t.seconds * 1000 + ms}.${THREE[t.micros - ms * 1000]}`;
}

const before = (a: Instant, b: Instant) => a.seconds < b.seconds || (a.seconds === b.seconds && a.micros < b.micros);

/** `/sync` */
export function sync(request: RouteRequest, state: AppState): Response {
  const t1 = request.clock();
  const t0 = t0Text(request.query);
  const t2 = state.clockCheck.checkedNow();
  if (t2 === null) {
    throw new HttpError("clock_diverged", 503, "clock diverged: this instance's clock disagrees with the system clock (see /health); ask again or elsewhere");
  }
  // A system clock stepped back between the two readings (NTP): the later reading is the
  // corrected clock, and the answer keeps t1 <= t2.
  const t1Text = unixMillisText(before(t2, t1) ? t2 : t1);
  const t2Text = unixMillisText(t2);
  return request.data.responses.sync(`{"t0":${t0},"t1":${t1Text},"t2":${t2Text}}`, `t1;dur=${t1Text}, t2;dur=${t2Text}`, request.head);
}
