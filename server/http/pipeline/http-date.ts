// The Date header (RFC 9110 section 5.6.7, IMF-fixdate) of every answer, from the
// service's clock (handler.ts). Formatted once a second, not per request.

let second = -1;
let text = "";

/** `Sat, 21 Nov 2026 13:11:25 GMT` for the second of `nowMs`. */
export function httpDate(nowMs: number): string {
  const s = Math.floor(nowMs / 1000);
  if (s !== second) {
    second = s;
    text = new Date(s * 1000).toUTCString();
  }
  return text;
}
