// Seeded random and malformed HTTP/1.x requests for the fuzz test, each with the outcome
// the test expects for it: Bun's own refusal where the request breaks HTTP itself, else
// our answer, whose status follows from the method and the request target.

export interface FuzzRequest {
  text: string;
  /** What must come back (see expectedOutcome). */
  expect: Expected;
}

export type Expected =
  /** Bun's parser refuses it before our handler sees it: its fixed 400 or 505, nothing of ours. */
  | { by: "bun" }
  /** Bun 1.4.4 closes the connection without a byte on a method token it does not know. */
  | { by: "bun-closes" }
  /** An incomplete request line: nothing may come back before the client gives up. */
  | { by: "nobody-yet" }
  /** Our handler answers with exactly this status; "target": what a plain GET of the target with the same Host lines gets. */
  | { by: "us"; status: number | "target"; notModifiedIfList: boolean };

export function fuzzRequests(seed: number, count: number): FuzzRequest[] {
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const randomBytes = (n: number) => Array.from({ length: n }, () => String.fromCharCode(Math.floor(random() * 256))).join("");
  const HEADERS = ["Host: localhost", "Host:", "Host: " + randomBytes(20).replace(/[\r\n]/g, ""), "Accept: */*", "Transfer-Encoding: chunked",
    "Content-Length: 5", "Content-Length: -1", "X-Forwarded-For: 1.2.3.4", "If-None-Match: *", "Connection: keep-alive", "Expect: 100-continue"];
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    if (random() < 0.1) {
      const text = randomBytes(1 + Math.floor(random() * 200));
      // Token bytes alone are the start of a request line: the server rightly waits for the rest.
      out.push({ text, expect: /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text) ? { by: "nobody-yet" } : { by: "bun" } });
      continue;
    }
    const segments = Array.from({ length: Math.floor(random() * 5) }, () => pick(SEGMENTS));
    let path = "/" + segments.join("/");
    if (random() < 0.1) path = randomBytes(30).replace(/[\r\n ]/g, "x");
    const headers = Array.from({ length: Math.floor(random() * 4) }, () => pick(HEADERS));
    if (random() < 0.8) headers.push("Host: 127.0.0.1");
    const version = random() < 0.9 ? "HTTP/1.1" : pick(["HTTP/1.0", "HTTP/2.0", "HTTP/9", "FOO"]);
    const body = random() < 0.2 ? randomBytes(Math.floor(random() * 10)) : "";
    const method = pick(METHODS);
    const target = `${path}${pick(QUERIES)}`;
    const text = `${method} ${target} ${version}\r\n${headers.join("\r\n")}\r\nConnection: close\r\n\r\n${body}`;
    out.push({ text, expect: expectedOutcome(method, target, version, headers) });
  }
  return out;
}

const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "TRACE", "CONNECT", "PATCH", "get", "G\u0000T", "", "BREW"];
const SEGMENTS = ["timezone", "ip", "api", "Europe", "London", "America", "Argentina", "Salta", "UTC", "8.8.8.8", "::1",
  "2001:db8::1", "..", ".", "", "%2F", "%00", "%zz", "%", "%E2%82%AC", "%C0%AF", "txt", ".txt", "health", "a".repeat(300), "🙂"];
const QUERIES = ["", "?at=0", "?at=-1.5", "?at=1e9", "?at=2026-02-30T00:00:00Z", "?at=%", "?at=" + "9".repeat(50), "?a=b&at=1&at=2", "?&&&", "?at=2026-11-21T00:00:00+25:00"];
const ROUTED_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "TRACE", "CONNECT", "PATCH"]);

/**
 * What HTTP/1.1 (RFC 9112), Bun 1.4.4's parser and our API make of one request. Bun refuses
 * what is not HTTP: an invalid method token, a version it does not speak, a target or a
 * header with control bytes, HTTP/1.1 without Host, a bad Content-Length, a repeated
 * Transfer-Encoding or one beside Content-Length. It accepts an empty or repeated Host;
 * we answer a repeated Host 400 (RFC 9112 section 3.2), whatever the method and path.
 */
export function expectedOutcome(method: string, target: string, version: string, headers: string[]): Expected {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method) || !/^HTTP\/1\.[01]$/.test(version)) return { by: "bun" };
  if (!/^\/[\x21-\x7e\u0080-\uffff]*$/.test(target)) return { by: "bun" };
  const count = (header: string) => headers.filter((h) => h === header).length;
  const bad = headers.some((h) => /[\x00-\x08\x0a-\x1f\x7f]/.test(h)) ||
    (version === "HTTP/1.1" && !headers.some((h) => h.startsWith("Host:"))) ||
    count("Content-Length: -1") > 0 || count("Transfer-Encoding: chunked") > 1 ||
    (count("Transfer-Encoding: chunked") > 0 && (count("Content-Length: 5") > 0 || version === "HTTP/1.0"));
  if (bad) return { by: "bun" };
  if (!ROUTED_METHODS.has(method)) return { by: "bun-closes" };
  if (headers.filter((h) => h.startsWith("Host:")).length > 1) return { by: "us", status: 400, notModifiedIfList: false };
  if (method === "OPTIONS") return { by: "us", status: 204, notModifiedIfList: false };
  if (method !== "GET" && method !== "HEAD") return { by: "us", status: 405, notModifiedIfList: false };
  return { by: "us", status: "target", notModifiedIfList: headers.includes("If-None-Match: *") };
}

/** The final status line's code, after any interim 1xx (100 Continue); 0 when nothing came. */
export function finalStatus(response: string): number {
  let rest = response;
  for (;;) {
    const m = /^HTTP\/1\.[01] (\d{3})[^\r]*\r\n/.exec(rest);
    if (!m) return 0;
    const status = Number(m[1]);
    if (status >= 200) return status;
    const end = rest.indexOf("\r\n\r\n");
    if (end < 0) return 0;
    rest = rest.slice(end + 4);
  }
}
