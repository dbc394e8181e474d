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

// The parsers walk the text once by char code and allocate nothing but the result: they
// run on every /ip request (split() and small arrays cost more than the table search).

const DOT = 46;
const COLON = 58;

/** Dotted-quad IPv4 in text[start, end) as an unsigned 32-bit value, or -1. */
function ipv4Between(text: string, start: number, end: number): number {
  let value = 0;
  let parts = 0;
  let part = 0;
  let digits = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : DOT; // a dot after the last part closes it
    if (c === DOT) {
      if (digits === 0 || part > 255 || ++parts > 4) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else {
      const d = c - 48;
      if (d < 0 || d > 9) return -1;
      if (digits === 1 && part === 0) return -1; // leading zero
      if (++digits > 3) return -1;
      part = part * 10 + d;
    }
  }
  return parts === 4 ? value : -1;
}

export function parseIpv4(text: string): number | null {
  const value = ipv4Between(text, 0, text.length);
  return value < 0 ? null : value;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

export function parseIpv6(text: string): Uint16Array | null {
  const n = text.length;
  const groups = new Uint16Array(8);
  let count = 0;
  /** Where `::` stands, in groups; -1 without one. */
  let gap = -1;
  let i = 0;
  if (n >= 2 && text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return null; // a lone leading colon
    gap = 0;
    i = 2;
  }
  while (i < n) {
    let value = 0;
    let j = i;
    while (j < n && j - i <= 4) {
      const d = hexDigit(text.charCodeAt(j));
      if (d < 0) break;
      value = value * 16 + d;
      j++;
    }
    if (j < n && text.charCodeAt(j) === DOT) {
      // An IPv4 tail: the rest of the text, two groups.
      const v4 = count <= 6 ? ipv4Between(text, i, n) : -1;
      if (v4 < 0) return null;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      break;
    }
    if (j === i || j - i > 4 || count === 8) return null;
    groups[count++] = value;
    if (j === n) break;
    if (text.charCodeAt(j) !== COLON) return null;
    if (j + 1 < n && text.charCodeAt(j + 1) === COLON) {
      if (gap >= 0) return null; // a second `::`
      gap = count;
      i = j + 2;
    } else {
      i = j + 1;
      if (i === n) return null; // a lone trailing colon
    }
  }
  if (gap < 0) return count === 8 ? groups : null;
  if (count > 7) return null; // `::` stands for at least one group
  const after = count - gap;
  groups.copyWithin(8 - after, gap, count);
  groups.fill(0, gap, 8 - after);
  return groups;
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

/**
 * RFC 5952 text: lowercase, the longest run of two or more zero groups as `::`, and an
 * IPv4-mapped address (::ffff:0:0/96) with its last 32 bits dotted (section 5), as Go's
 * netip writes it: `::ffff:8.8.8.8`, never `::ffff:808:808`.
 */
export function formatIpv6(groups: Uint16Array): string {
  if (groups[5] === 0xffff && groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0) {
    return `::ffff:${formatIpv4(groups[6]! * 65536 + groups[7]!)}`;
  }
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
  if (bestStart < 0) return hexGroups(groups, 0, 8);
  return `${hexGroups(groups, 0, bestStart)}::${hexGroups(groups, bestStart + bestLength, 8)}`;
}

/** A byte in hex: without leading zero, and as two digits. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16));
const HEX2 = HEX.map((h) => h.padStart(2, "0"));

/** A group in hex without leading zeros, from two table reads (toString(16) was a tenth of an /ip answer's CPU). */
function hexGroup(group: number): string {
  const high = group >>> 8;
  return high === 0 ? HEX[group]! : HEX[high]! + HEX2[group & 255]!;
}

/** Groups [from, to) in hex joined by ":" (a loop: no array, view or closure per call, it runs on every /ip). */
function hexGroups(groups: Uint16Array, from: number, to: number): string {
  let text = "";
  for (let i = from; i < to; i++) text += i === from ? hexGroup(groups[i]!) : `:${hexGroup(groups[i]!)}`;
  return text;
}

export function formatIp(address: IpAddress): string {
  return address.version === 4 ? formatIpv4(address.value) : formatIpv6(address.groups);
}
