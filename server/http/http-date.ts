// The Date header (RFC 9110 section 5.6.7, IMF-fixdate), for the answers Bun sends
// without one: it adds Date to every response except those to HEAD. Formatted once a
// second, not per request.

let second = -1;
let text = "";

/** `Sat, 21 Nov 2026 13:11:25 GMT` for the current second of the system clock. */
export function httpDate(nowMs: number = Date.now()): string {
  const s = Math.floor(nowMs / 1000);
  if (s !== second) {
    second = s;
    text = new Date(s * 1000).toUTCString();
  }
  return text;
}
