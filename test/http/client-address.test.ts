// Which address a request is attributed to: the socket peer, or, only from a trusted
// proxy, the nearest untrusted hop of Forwarded / X-Forwarded-For, walked from the right.

import { afterAll, describe, expect, test } from "bun:test";
import { forwardedFor, parseHop, resolveClient } from "../../server/http/client-address.ts";
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
  const trusted = cidrs("10.0.0.0/8, loopback");
  test("without trusted proxies the headers are ignored", () => {
    expect(resolveClient("10.1.1.1", headers({ "X-Forwarded-For": "1.2.3.4" }), [])).toBe("10.1.1.1");
  });
  test("an untrusted peer's X-Forwarded-For is ignored", () => {
    expect(resolveClient("198.51.100.9", headers({ "X-Forwarded-For": "1.2.3.4" }), trusted)).toBe("198.51.100.9");
  });
  test("from a trusted peer: the rightmost untrusted hop, not a forged one further left", () => {
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "6.6.6.6, 8.8.8.8, 10.0.0.7" }), trusted)).toBe("8.8.8.8");
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "8.8.8.8" }), trusted)).toBe("8.8.8.8");
  });
  test("all hops trusted: the leftmost", () => {
    expect(resolveClient("127.0.0.1", headers({ "X-Forwarded-For": "10.9.9.9, 10.0.0.7" }), trusted)).toBe("10.9.9.9");
  });
  test("Forwarded (RFC 7239) likewise, with quotes, brackets and ports; it wins over X-Forwarded-For", () => {
    const h = headers({
      Forwarded: 'for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.0.7;by=10.0.0.1',
      "X-Forwarded-For": "9.9.9.9",
    });
    expect(resolveClient("10.0.0.2", h, trusted)).toBe("2001:db8:cafe::17");
  });
  test("garbage or `unknown` stops the walk at the last trusted hop", () => {
    expect(resolveClient("10.0.0.2", headers({ "X-Forwarded-For": "1.2.3.4, nonsense" }), trusted)).toBe("10.0.0.2");
    expect(resolveClient("10.0.0.2", headers({ Forwarded: "for=unknown" }), trusted)).toBe("10.0.0.2");
  });
  test("hop forms", () => {
    expect(forwardedFor('for=192.0.2.43, for="[2001:db8::1]";proto=http')).toEqual(["192.0.2.43", '"[2001:db8::1]"']);
    for (const [hop, want] of [["1.2.3.4:80", "1.2.3.4"], ["[::1]:8080", "::1"], ['"[2001:db8::1]"', "2001:db8::1"], ["::ffff:1.2.3.4", "1.2.3.4"]] as const) {
      expect(formatIp(parseHop(hop)!)).toBe(want);
    }
    expect(parseHop("_hidden")).toBeNull();
  });
});

describe("over HTTP", () => {
  const servers: { stop: () => void }[] = [];
  afterAll(() => servers.forEach((s) => s.stop()));

  test("untrusted (no TRUST_PROXY): X-Forwarded-For is ignored in client_ip and /ip", async () => {
    const s = await startTestServer();
    servers.push(s);
    const body = (await (await fetch(`${s.url}/timezone/UTC`, { headers: { "X-Forwarded-For": "8.8.8.8" } })).json()) as { client_ip: string };
    expect(body.client_ip).toBe("127.0.0.1");
    const ip = await fetch(`${s.url}/ip`, { headers: { "X-Forwarded-For": "8.8.8.8", Forwarded: "for=8.8.8.8" } });
    expect(ip.status).toBe(404); // loopback has no location: the header did not count
  }, 60_000);

  test("behind a trusted proxy (TRUST_PROXY=loopback): /ip and client_ip use the forwarded client", async () => {
    const s = await startTestServer({ TRUST_PROXY: "loopback" });
    servers.push(s);
    const ip = (await (await fetch(`${s.url}/ip`, { headers: { "X-Forwarded-For": "6.6.6.6, 8.8.8.8" } })).json()) as { client_ip: string; timezone: string };
    expect(ip).toMatchObject({ client_ip: "8.8.8.8", timezone: "America/Los_Angeles" });
    const fwd = (await (await fetch(`${s.url}/api/ip`, { headers: { Forwarded: 'for="[2001:4860:4860::8888]:443"' } })).json()) as { client_ip: string };
    expect(fwd.client_ip).toBe("2001:4860:4860::8888");
  }, 60_000);
});
