// The one client address a request is attributed to: /ip, client_ip, logs and rate
// limits all use it. It is the socket peer, unless that peer is a trusted proxy
// (TRUST_PROXY): then the ONE header that proxy writes (TRUST_PROXY_HEADER, by default
// X-Forwarded-For) is walked from the right, past trusted hops, to the nearest untrusted
// address, as nginx's realip module does (set_real_ip_from + real_ip_header +
// real_ip_recursive). Every other proxy header is the client's own text and is ignored:
// nginx, ALB and ingress-nginx append to X-Forwarded-For and pass a client's `Forwarded`
// through untouched, so believing both would let a client choose its own address.
//
// Only the socket peer earns what a socket peer may: a loopback peer (a health check, the
// operator, a proxy on the same host speaking for itself) is never rate limited; the same
// address read from a header is limited like any other (issue 17, F9).
//
// The shorthands `private` and `loopback` name where the ONE proxy in front may connect
// from, not where proxies are: clients live in those ranges too (a pod, a host on the
// VPN, a CGNAT subscriber in 100.64.0.0/10), and a client's own header text reaches us
// through its proxy, to the left of the hop that proxy appends. So a hop a header names is
// walked past only when it matches an address or range listed explicitly; otherwise a
// client in a private range could choose its client_ip by prepending
// (`X-Forwarded-For: 8.8.8.8` arrives as `8.8.8.8, 100.64.1.1`).
//
// A hop that is not an address (RFC 7239's `unknown`, an obfuscated `_name`, garbage)
// ends the walk there: the client is then unidentified (no address), and rate limits
// count it in a bucket named for the trusted hop that reported it. It never falls back
// to the proxy's own address, so no header can reach the loopback exemption.

import type { Server } from "bun";
import { formatIp, parseIp, type IpAddress } from "../../ip/address.ts";
import { cidrContains, type Cidr } from "../../ip/cidr.ts";

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

/**
 * The hops of a Forwarded header (RFC 7239 section 4), one per element and in order: the
 * element's `for=` value, or "" when it has none (that proxy did not say, which is an
 * unknown hop, so the positions of the others stay right).
 */
export function forwardedFor(header: string): string[] {
  return header.split(",").map((element) => {
    for (const pair of element.split(";")) {
      const eq = pair.indexOf("=");
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === "for") return pair.slice(eq + 1).trim();
    }
    return "";
  });
}

/** The hops of the configured header, left to right. */
function headerHops(headerName: string, value: string): string[] {
  return headerName === "forwarded" ? forwardedFor(value) : value.split(",");
}

const isTrusted = (address: IpAddress, trusted: readonly Cidr[]) => trusted.some((c) => cidrContains(c, address));
/** A hop a header names is a proxy only by an explicit entry (see the top of this file). */
const isTrustedHop = (address: IpAddress, trusted: readonly Cidr[]) => trusted.some((c) => c.shorthand === undefined && cidrContains(c, address));

/** A loopback socket peer, as peerAddress() prints it (IPv4-mapped shown as IPv4). */
export function isLoopbackPeer(peer: string): boolean {
  return peer.startsWith("127.") || peer === "::1";
}

/** The client of a request whose socket peer is the client itself. */
function direct(peer: string | null): Client {
  return { address: peer, limitKey: peer === null || isLoopbackPeer(peer) ? null : peer };
}

/** The proxy settings the walk needs (server/process/config.ts reads them). */
export interface ProxyTrust {
  trusted: readonly Cidr[];
  /** The one header the trusted proxy writes, lower case: x-forwarded-for, forwarded, x-real-ip... */
  header: string;
}

/** Who sent a request. */
export interface Client {
  /** The client's address (client_ip, /ip, logs), or null when it is not known. */
  address: string | null;
  /**
   * What the rate limit counts the request against: the address, or for a client a
   * trusted proxy could not identify, `unidentified via <that proxy>`; null (never
   * limited) for a loopback socket peer or without a socket, never for an address a
   * header names.
   */
  limitKey: string | null;
}

/** The client of a request: its socket peer, or whom a trusted proxy names. */
export function clientOf(req: Request, server: Server<unknown> | null, trust: ProxyTrust): Client {
  const peer = peerAddress(req, server);
  return trust.trusted.length > 0 ? resolveClient(peer, req.headers, trust) : direct(peer);
}

/** The client, given the socket peer and the request's headers. */
export function resolveClient(peer: string | null, headers: { get(name: string): string | null }, trust: ProxyTrust): Client {
  if (peer === null || trust.trusted.length === 0) return direct(peer);
  const peerIp = parseIp(peer);
  if (!peerIp || !isTrusted(peerIp, trust.trusted)) return direct(peer);
  const value = headers.get(trust.header);
  if (value === null) return direct(peer); // the proxy itself (or a health check beside it)
  const hops = headerHops(trust.header, value);
  // `reporter` is the nearest trusted hop so far: the one that wrote the hop being read.
  let reporter = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseHop(hops[i]!);
    if (!hop) return { address: null, limitKey: `unidentified via ${reporter}` };
    const address = formatIp(hop);
    if (!isTrustedHop(hop, trust.trusted) || i === 0) return { address, limitKey: address };
    reporter = address;
  }
  return { address: null, limitKey: `unidentified via ${reporter}` }; // not reached: a split has one hop at least
}
