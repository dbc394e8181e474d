// Address ranges in CIDR form (`10.0.0.0/8`, `2001:db8::/32`, or one address), for the
// trusted-proxy setting.

import { parseIp, type IpAddress } from "./address.ts";

export interface Cidr {
  version: 4 | 6;
  /** The network as 16-bit groups (IPv4 as two groups), and its prefix length in bits. */
  groups: Uint16Array;
  prefix: number;
  text: string;
  /** Set for a range from a shorthand (`private`, `loopback`): it trusts the socket peer, never a hop a header names (client-address.ts). */
  shorthand?: string;
}

function groupsOf(address: IpAddress): Uint16Array {
  return address.version === 6 ? address.groups : Uint16Array.of(address.value >>> 16, address.value & 0xffff);
}

export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf("/");
  const address = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (!address) return null;
  const max = address.version === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p) || Number(p) > max) return null;
    prefix = Number(p);
  }
  return { version: address.version, groups: groupsOf(address), prefix, text };
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  if (cidr.version !== address.version) return false;
  const groups = groupsOf(address);
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((groups[i]! & mask) !== (cidr.groups[i]! & mask)) return false;
  }
  return true;
}

const SHORTHANDS: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7", "127.0.0.0/8", "::1/128"],
};

/** A comma list of addresses, CIDRs, `loopback` and `private`; null names the bad entry. */
export function parseCidrList(text: string): { cidrs: Cidr[] } | { bad: string } {
  const cidrs: Cidr[] = [];
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const shorthand = SHORTHANDS[entry.toLowerCase()];
    for (const item of shorthand ?? [entry]) {
      const cidr = parseCidr(item);
      if (!cidr) return { bad: entry };
      cidrs.push(shorthand ? { ...cidr, shorthand: entry.toLowerCase() } : cidr);
    }
  }
  return { cidrs };
}
