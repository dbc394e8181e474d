// Before any table lookup: addresses that carry an IPv4 address inside IPv6 are unwrapped
// to it, and addresses that are not on the public Internet (private, loopback,
// link-local, CGNAT, documentation, multicast, reserved) have no location. Saying so is
// an explicit answer; guessing a zone for them would be a wrong one.

import type { IpAddress } from "./address.ts";

export type LookupKey =
  | { version: 4; value: number }
  /** The top 64 bits (the tables are cut to /64), as two unsigned 32-bit halves. */
  | { version: 6; high: number; low: number }
  | { version: 0; reason: string };

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;

/** IANA's IPv4 special-purpose registry (RFC 6890 and successors) plus multicast and 240/4. */
const IPV4_NO_LOCATION: [number, number, string][] = [
  [v4(0, 0, 0, 0), 8, "this network"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "shared address space (CGNAT)"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "IETF protocol assignments"],
  [v4(192, 0, 2, 0), 24, "documentation"],
  [v4(192, 88, 99, 0), 24, "6to4 relay anycast"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "benchmarking"],
  [v4(198, 51, 100, 0), 24, "documentation"],
  [v4(203, 0, 113, 0), 24, "documentation"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"],
];

// The registry as parallel arrays with the masks computed once: this runs on every /ip request.
const V4_BASES = Uint32Array.from(IPV4_NO_LOCATION, ([base]) => base);
const V4_MASKS = Uint32Array.from(IPV4_NO_LOCATION, ([, bits]) => (bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0));
const V4_REASONS = IPV4_NO_LOCATION.map(([, , reason]) => reason);

function ipv4Reason(value: number): string | null {
  for (let i = 0; i < V4_BASES.length; i++) {
    if (((value & V4_MASKS[i]!) >>> 0) === V4_BASES[i]) return V4_REASONS[i]!;
  }
  return null;
}

function ipv6Reason(g: Uint16Array): string | null {
  if ((g[0]! & 0xe000) !== 0x2000) return "not global unicast (loopback, link-local, unique-local, multicast or reserved)";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "documentation";
  if (g[0] === 0x3fff && g[1]! < 0x1000) return "documentation";
  if (g[0] === 0x2001 && g[1]! < 0x0200) return "IETF protocol assignments";
  if (g[0] === 0x5f00) return "segment routing";
  return null;
}

const last32 = (g: Uint16Array) => g[6]! * 65536 + g[7]!;

/** Groups [from, to) all zero (an index loop: no view or closure per /ip request). */
function zeros(g: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (g[i] !== 0) return false;
  return true;
}

function ipv4Key(value: number): LookupKey {
  const reason = ipv4Reason(value);
  return reason ? { version: 0, reason } : { version: 4, value };
}

/** What to look up for an address: an IPv4 value, an IPv6 /64, or why there is nothing. */
export function lookupKey(address: IpAddress): LookupKey {
  if (address.version === 4) return ipv4Key(address.value);
  const g = address.groups;
  if (zeros(g, 0, 5) && g[5] === 0xffff) return ipv4Key(last32(g)); // ::ffff:0:0/96, IPv4-mapped
  if (g[0] === 0x0064 && g[1] === 0xff9b && zeros(g, 2, 6)) return ipv4Key(last32(g)); // 64:ff9b::/96, NAT64
  if (g[0] === 0x2002) return ipv4Key(g[1]! * 65536 + g[2]!); // 2002::/16, 6to4
  if (g[0] === 0x2001 && g[1] === 0) return ipv4Key((~last32(g)) >>> 0); // 2001::/32, Teredo: inverted client address
  const reason = ipv6Reason(g);
  if (reason) return { version: 0, reason };
  return { version: 6, high: g[0]! * 65536 + g[1]!, low: g[2]! * 65536 + g[3]! };
}
