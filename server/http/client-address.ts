// The one client address a request is attributed to: /ip, client_ip, logs and rate
// limits all use it. It is the socket peer, unless that peer is a trusted proxy
// (TRUST_PROXY): then Forwarded (RFC 7239) or else X-Forwarded-For is walked from the
// right, past trusted hops, to the nearest untrusted address. A client cannot forge its
// way past a proxy we trust, because every hop it could write lies left of the one our
// proxy appended.

import type { Server } from "bun";
import { formatIp, parseIp, type IpAddress } from "../ip/address.ts";
import { cidrContains, type Cidr } from "../ip/cidr.ts";

const MAPPED_PREFIX = "::ffff:";

/** The socket peer, `::ffff:a.b.c.d` shown as `a.b.c.d`; null without a socket. */
export function peerAddress(req: Request, server: Server<unknown> | null): string | null {
  const peer = server?.requestIP(req);
  if (!peer) return null;
  const address = peer.address;
  // Bun prints IPv6 in lowercase; a mapped IPv4 peer is the only IPv6 form with a dot.
  if (peer.family === "IPv6" && address.startsWith(MAPPED_PREFIX) && address.indexOf(".", 7) > 0) return address.slice(7);
  return address;
}

/** An address as a proxy header writes it: bare, `[v6]`, `[v6]:port`, `v4:port`, quoted. */
export function parseHop(text: string): IpAddress | null {
  let t = text.trim();
  if (t.length > 2 && t.startsWith('"') && t.endsWith('"')) t = t.slice(1, -1);
  if (t.startsWith("[")) {
    const close = t.indexOf("]");
    if (close < 0) return null;
    const rest = t.slice(close + 1);
    if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return null;
    t = t.slice(1, close);
  } else if (t.indexOf(":") > 0 && t.indexOf(":") === t.lastIndexOf(":") && t.includes(".")) {
    t = t.slice(0, t.indexOf(":")); // IPv4 with a port
  }
  const address = parseIp(t);
  if (address?.version === 6 && address.groups.subarray(0, 5).every((g) => g === 0) && address.groups[5] === 0xffff) {
    return { version: 4, value: address.groups[6]! * 65536 + address.groups[7]! };
  }
  return address;
}

/** The `for=` values of a Forwarded header, in order (RFC 7239 section 4). */
export function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(",")) {
    for (const pair of element.split(";")) {
      const eq = pair.indexOf("=");
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === "for") out.push(pair.slice(eq + 1).trim());
    }
  }
  return out;
}

const isTrusted = (address: IpAddress, trusted: readonly Cidr[]) => trusted.some((c) => cidrContains(c, address));

/** The client address, given the peer and the proxy headers it sent. */
export function resolveClient(
  peer: string | null,
  headers: { get(name: string): string | null },
  trusted: readonly Cidr[],
): string | null {
  if (peer === null || trusted.length === 0) return peer;
  const peerAddress = parseIp(peer);
  if (!peerAddress || !isTrusted(peerAddress, trusted)) return peer;
  const forwarded = headers.get("forwarded");
  const hops = forwarded !== null ? forwardedFor(forwarded) : (headers.get("x-forwarded-for")?.split(",") ?? []);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseHop(hops[i]!);
    if (!hop) break; // "unknown", an obfuscated name or garbage: nothing further left can be trusted
    client = formatIp(hop);
    if (!isTrusted(hop, trusted)) break;
  }
  return client;
}
