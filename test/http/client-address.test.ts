// Which address a request is attributed to: the socket peer, or, only from a trusted
// proxy, the nearest untrusted hop of the ONE header that proxy writes
// (TRUST_PROXY_HEADER, X-Forwarded-For by default), walked from the right. Nothing a
// client writes reaches the loopback exemption or another client's bucket.

import { afterAll, describe, expect, test } from "bun:test";
import { forwardedFor, parseHop, resolveClient } from "../../server/http/pipeline/client-address.ts";
import { parseCidrList } from "../../server/ip/cidr.ts";
import { formatIp } from "../../server/ip/address.ts";
import { startTestServer } from "../support/test-server.ts";

const cidrs = (text: string) => {
  const parsed = parseCidrList(text);
  if ("bad" in parsed) throw new Error(parsed.bad);
  return parsed.cidrs;
};
const headers = (h: Record<string, string>) => new Headers(h);

describe("resolveClient", () => {
  const xff = { trusted: cidrs("10.0.0.0/8, loopback"), header: "x-forwarded-for" };
  const forwarded = { ...xff, header: "forwarded" };
  const address = (peer: string, h: Record<string, string>, trust = xff) => resolveClient(peer, headers(h), trust).address;

  test("without trusted proxies the headers are ignored", () => {
    expect(resolveClient("10.1.1.1", headers({ "X-Forwarded-For": "1.2.3.4" }), { trusted: [], header: "x-forwarded-for" }))
      .toEqual({ address: "10.1.1.1", limitKey: "10.1.1.1" });
  });
  test("an untrusted peer's X-Forwarded-For is ignored", () => {
    expect(address("198.51.100.9", { "X-Forwarded-For": "1.2.3.4" })).toBe("198.51.100.9");
  });
  test("from a trusted peer: the rightmost untrusted hop, not a forged one further left", () => {
    expect(address("10.0.0.2", { "X-Forwarded-For": "6.6.6.6, 8.8.8.8, 10.0.0.7" })).toBe("8.8.8.8");
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "8.8.8.8" }), xff)).toEqual({ address: "8.8.8.8", limitKey: "8.8.8.8" });
  });
  test("all hops trusted: the leftmost", () => {
    expect(address("127.0.0.1", { "X-Forwarded-For": "10.9.9.9, 10.0.0.7" })).toBe("10.9.9.9");
  });
  test("only the configured header counts: a client's own Forwarded is ignored behind an X-Forwarded-For proxy", () => {
    for (const fwd of ["for=unknown", "for=9.9.9.9", 'for="[::1]"', "for=127.0.0.1"]) {
      expect(resolveClient("127.0.0.1", headers({ Forwarded: fwd, "X-Forwarded-For": "8.8.8.8" }), xff)).toEqual({ address: "8.8.8.8", limitKey: "8.8.8.8" });
    }
  });
  test("TRUST_PROXY_HEADER=forwarded: RFC 7239, with quotes, brackets and ports; X-Forwarded-For is then the client's and ignored", () => {
    const h = { Forwarded: 'for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.0.7;by=10.0.0.1', "X-Forwarded-For": "9.9.9.9" };
    expect(address("10.0.0.2", h, forwarded)).toBe("2001:db8:cafe::17");
    // An element without for= is a hop that said nothing: it keeps its position.
    expect(resolveClient("10.0.0.2", headers({ Forwarded: "for=8.8.8.8, proto=https" }), forwarded)).toEqual({ address: null, limitKey: "unidentified via 10.0.0.2" });
  });
  test("another header (X-Real-IP) likewise", () => {
    expect(address("10.0.0.2", { "X-Real-IP": "8.8.4.4", "X-Forwarded-For": "1.1.1.1" }, { ...xff, header: "x-real-ip" })).toBe("8.8.4.4");
  });
  test("an unparseable hop ends the walk there: no address, a bucket named for the hop that reported it, never the proxy's own", () => {
    expect(resolveClient("127.0.0.1", headers({ "X-Forwarded-For": "8.8.8.8, unknown" }), xff)).toEqual({ address: null, limitKey: "unidentified via 127.0.0.1" });
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "1.2.3.4, nonsense, 10.0.0.7" }), xff)).toEqual({ address: null, limitKey: "unidentified via 10.0.0.7" });
    expect(resolveClient("10.0.0.2", headers({ Forwarded: "for=unknown" }), forwarded)).toEqual({ address: null, limitKey: "unidentified via 10.0.0.2" });
    expect(resolveClient("127.0.0.1", headers({ "X-Forwarded-For": "" }), xff)).toEqual({ address: null, limitKey: "unidentified via 127.0.0.1" });
    // Garbage left of the client's own hop is never reached.
    expect(address("10.0.0.2", { "X-Forwarded-For": "nonsense, 8.8.8.8" })).toBe("8.8.8.8");
  });
  test("a trusted peer without the header is the client itself (a health check beside the proxy)", () => {
    // A loopback socket peer is never limited (limitKey null): that is the peer's, not an address's, exemption.
    expect(resolveClient("127.0.0.1", headers({ Forwarded: "for=8.8.8.8" }), xff)).toEqual({ address: "127.0.0.1", limitKey: null });
    expect(resolveClient("10.0.0.2", headers({}), xff)).toEqual({ address: "10.0.0.2", limitKey: "10.0.0.2" });
  });
  test("F9: an address read from a header never earns the loopback exemption", () => {
    for (const hop of ["127.0.0.1", "::1", "127.9.9.9", "[::1]:80"]) {
      const client = resolveClient("127.0.0.1", headers({ "X-Forwarded-For": hop }), xff);
      expect(client.limitKey).not.toBeNull();
      expect(client.limitKey).toBe(client.address!);
    }
  });
  test("F9: TRUST_PROXY=private trusts the socket peer, never a hop a header names, so a client in a private range cannot prepend its client_ip", () => {
    const priv = { trusted: cidrs("private"), header: "x-forwarded-for" };
    // A client at 100.64.1.1 sent `X-Forwarded-For: 8.8.8.8` (or 127.0.0.1) through the proxy at 10.0.0.2, which appended its address.
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "8.8.8.8, 100.64.1.1" }), priv)).toEqual({ address: "100.64.1.1", limitKey: "100.64.1.1" });
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "127.0.0.1, 100.64.1.1" }), priv)).toEqual({ address: "100.64.1.1", limitKey: "100.64.1.1" });
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "127.0.0.1, 10.9.9.9" }), priv)).toEqual({ address: "10.9.9.9", limitKey: "10.9.9.9" });
    // A chain of proxies is walked through the addresses listed explicitly.
    const chain = { trusted: cidrs("private, 10.0.0.7"), header: "x-forwarded-for" };
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "6.6.6.6, 8.8.8.8, 10.0.0.7" }), chain).address).toBe("8.8.8.8");
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "8.8.8.8, 10.0.0.8" }), chain).address).toBe("10.0.0.8");
  });
  test("hop forms", () => {
    expect(forwardedFor('for=192.0.2.43, for="[2001:db8::1]";proto=http, by=1.2.3.4')).toEqual(["192.0.2.43", '"[2001:db8::1]"', ""]);
    for (const [hop, want] of [["1.2.3.4:80", "1.2.3.4"], ["[::1]:8080", "::1"], ['"[2001:db8::1]"', "2001:db8::1"], ["::ffff:1.2.3.4", "1.2.3.4"]] as const) {
      expect(formatIp(parseHop(hop)!)).toBe(want);
    }
    expect(parseHop("_hidden")).toBeNull();
  });
});

describe("over HTTP", () => {
  const servers: { stop: () => void }[] = [];
  afterAll(() => servers.forEach((s) => s.stop()));
  const statuses = async (url: string, n: number, headersOf: (i: number) => Record<string, string>) => {
    const counts: Record<number, number> = {};
    for (let i = 0; i < n; i++) {
      const status = (await fetch(url, { headers: headersOf(i) })).status;
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  };

  // Without a limit (or an access log) the client is resolved only when a route reads it (handler.ts).
  for (const limit of ["120/60s", "off"]) {
    test(`untrusted (no TRUST_PROXY), RATE_LIMIT=${limit}: X-Forwarded-For is ignored in client_ip and /ip`, async () => {
      const s = await startTestServer({ RATE_LIMIT: limit });
      servers.push(s);
      const body = (await (await fetch(`${s.url}/timezone/UTC`, { headers: { "X-Forwarded-For": "8.8.8.8" } })).json()) as { client_ip: string };
      expect(body.client_ip).toBe("127.0.0.1");
      const ip = await fetch(`${s.url}/ip`, { headers: { "X-Forwarded-For": "8.8.8.8", Forwarded: "for=8.8.8.8" } });
      expect(ip.status).toBe(404); // loopback has no location: the header did not count
    }, 60_000);

    test(`behind a trusted proxy (TRUST_PROXY=loopback), RATE_LIMIT=${limit}: /ip and client_ip use the forwarded client`, async () => {
      const s = await startTestServer({ TRUST_PROXY: "loopback", RATE_LIMIT: limit });
      servers.push(s);
      const ip = (await (await fetch(`${s.url}/ip`, { headers: { "X-Forwarded-For": "6.6.6.6, 8.8.8.8" } })).json()) as { client_ip: string; timezone: string };
      expect(ip).toMatchObject({ client_ip: "8.8.8.8", timezone: "America/Los_Angeles" });
      // Forwarded is not the header this proxy writes: the client's own, ignored.
      const fwd = (await (await fetch(`${s.url}/api/timezone/UTC`, { headers: { Forwarded: 'for="[2001:4860:4860::8888]:443"' } })).json()) as { client_ip: string };
      expect(fwd.client_ip).toBe("127.0.0.1");
    }, 60_000);
  }

  test("the issue's spoof (TRUST_PROXY=loopback RATE_LIMIT=5/60s): a client's Forwarded reaches neither the loopback exemption nor a fresh bucket", async () => {
    const s = await startTestServer({ TRUST_PROXY: "loopback", RATE_LIMIT: "5/60s" });
    servers.push(s);
    const url = `${s.url}/timezone/UTC`;
    expect(await statuses(url, 50, () => ({ "X-Forwarded-For": "8.8.8.8" }))).toEqual({ 200: 5, 429: 45 });
    expect(await statuses(url, 50, () => ({ "X-Forwarded-For": "8.8.4.4", Forwarded: "for=unknown" }))).toEqual({ 200: 5, 429: 45 });
    expect(await statuses(url, 50, (i) => ({ "X-Forwarded-For": "1.1.1.1", Forwarded: `for=9.9.9.${i}` }))).toEqual({ 200: 5, 429: 45 });
    // The proxy itself reporting `unknown`: one bucket for the clients it could not name, not loopback's exemption.
    expect(await statuses(url, 20, () => ({ "X-Forwarded-For": "unknown" }))).toEqual({ 200: 5, 429: 15 });
    const unknown = await fetch(`${s.url}/timezone/UTC`, { headers: { "X-Forwarded-For": "8.8.8.8, _hidden" } });
    expect(unknown.status).toBe(429); // the same bucket as the `unknown` ones above
  }, 60_000);

  test("F9 over HTTP (TRUST_PROXY=private RATE_LIMIT=5/60s): a forwarded 127.0.0.1 is limited; a prepended address is not the client_ip", async () => {
    const s = await startTestServer({ TRUST_PROXY: "private", RATE_LIMIT: "5/60s" });
    servers.push(s);
    const url = `${s.url}/timezone/UTC`;
    expect(await statuses(url, 12, () => ({ "X-Forwarded-For": "127.0.0.1, 100.64.1.1" }))).toEqual({ 200: 5, 429: 7 });
    expect(await statuses(url, 12, () => ({ "X-Forwarded-For": "::1" }))).toEqual({ 200: 5, 429: 7 });
    const body = (await (await fetch(url, { headers: { "X-Forwarded-For": "8.8.8.8, 100.64.1.2" } })).json()) as { client_ip: string };
    expect(body.client_ip).toBe("100.64.1.2");
    // The socket peer itself (loopback, no header) is never limited.
    expect(await statuses(url, 12, () => ({}))).toEqual({ 200: 12 });
  }, 60_000);

  test("TRUST_PROXY_HEADER=forwarded: Forwarded is walked, a client's X-Forwarded-For is ignored", async () => {
    const s = await startTestServer({ TRUST_PROXY: "loopback", TRUST_PROXY_HEADER: "Forwarded", RATE_LIMIT: "3/60s" });
    servers.push(s);
    const body = (await (await fetch(`${s.url}/timezone/UTC`, { headers: { Forwarded: "for=192.0.2.1, for=8.8.8.8", "X-Forwarded-For": "1.2.3.4" } })).json()) as { client_ip: string };
    expect(body.client_ip).toBe("8.8.8.8");
    expect(await statuses(`${s.url}/timezone/UTC`, 10, (i) => ({ Forwarded: "for=203.0.113.9", "X-Forwarded-For": `9.9.9.${i}` }))).toEqual({ 200: 3, 429: 7 });
  }, 60_000);
});
