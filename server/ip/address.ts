// A strict IP address parser and formatter. IPv4 is dotted-quad only: no `1.2.3`, no
// `0x7f.1`, no octal-looking `010.0.0.1` (inet_aton would read that as 8.0.0.1, a lookup
// for a different address than the one the user typed). IPv6 takes every RFC 4291 form,
// including `::` and an embedded IPv4 tail; zone ids (`fe80::1%eth0`) are refused, as
// they name an interface on someone else's machine.

export type IpAddress =
  | { version: 4; value: number }
  /** Eight 16-bit groups. */
  | { version: 6; groups: Uint16Array };

const MAX_TEXT = 45; // the longest IPv6 text form: ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255

export function parseIpv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (part.length === 0 || part.length > 3) return null;
    if (part.length > 1 && part.charCodeAt(0) === 48) return null; // leading zero
    let n = 0;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return null;
      n = n * 10 + c;
    }
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

function parseGroup(text: string): number | null {
  if (text.length === 0 || text.length > 4) return null;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) return null;
    n = n * 16 + d;
  }
  return n;
}

export function parseIpv6(text: string): Uint16Array | null {
  const doubleColon = text.indexOf("::");
  if (doubleColon >= 0 && text.indexOf("::", doubleColon + 1) >= 0) return null;
  const parseSide = (side: string, allowIpv4Tail: boolean): number[] | null => {
    if (side === "") return [];
    const pieces = side.split(":");
    const groups: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (allowIpv4Tail && i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
      } else {
        const g = parseGroup(piece);
        if (g === null) return null;
        groups.push(g);
      }
    }
    return groups;
  };
  let groups: number[];
  if (doubleColon < 0) {
    const all = parseSide(text, true);
    if (all === null || all.length !== 8) return null;
    groups = all;
  } else {
    const head = parseSide(text.slice(0, doubleColon), false);
    const tail = parseSide(text.slice(doubleColon + 2), true);
    if (head === null || tail === null || head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return Uint16Array.from(groups);
}

/** Parses an IPv4 or IPv6 address; null for anything else. */
export function parseIp(text: string): IpAddress | null {
  if (text.length === 0 || text.length > MAX_TEXT) return null;
  if (text.includes(":")) {
    const groups = parseIpv6(text);
    return groups ? { version: 6, groups } : null;
  }
  const value = parseIpv4(text);
  return value === null ? null : { version: 4, value };
}

export function formatIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** RFC 5952 text: lowercase, the longest run of two or more zero groups as `::`. */
export function formatIpv6(groups: Uint16Array): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (from: number, to: number) => Array.from(groups.subarray(from, to), (g) => g.toString(16)).join(":");
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

export function formatIp(address: IpAddress): string {
  return address.version === 4 ? formatIpv4(address.value) : formatIpv6(address.groups);
}
