// generated/ip4.bin and generated/ip6.bin: the one definition of the IP range tables.
// Written by scripts/ip/build-ip.ts, read by server/ip/ip-locator.ts. Little-endian.
//
//   header (64 bytes)       magic "ZTIPV4\0\0" or "ZTIPV6\0\0", u16 major, u16 minor,
//                           u32 rangeCount, nameCount, stringCount, stringBytes, then zeros
//   u32[rangeCount]         first address of each range (IPv6: the top 32 bits of the /64)
//   u32[rangeCount]         IPv6 only: the next 32 bits of the /64
//   u32[stringCount+1]      string offsets into the UTF-8 blob, then its end
//   u16[rangeCount]         zone name index of each range, 0xffff for "no location"
//   u8[stringBytes]         strings: the zone names, then one JSON string of source metadata
//
// A range runs from its first address to the next range's first address; the ranges
// cover the whole address space, ascending, with no two neighbours alike.

import { encodeStrings, readStrings, writeStrings } from "./string-table.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

/** The file names in generated/, one per address family. */
export const IPV4_FILE = "ip4.bin";
export const IPV6_FILE = "ip6.bin";
export const IP_FORMAT_MAJOR = 1;
export const IP_FORMAT_MINOR = 0;
export const NO_ZONE = 0xffff;
const kindOf = (version: 4 | 6): TableKind => ({ magic: `ZTIPV${version}\0\0`, major: IP_FORMAT_MAJOR, minor: IP_FORMAT_MINOR, what: `IPv${version} table` });

export interface IpTableInput {
  version: 4 | 6;
  /** For IPv4 the address; for IPv6 the top 32 bits of the /64. */
  highs: Uint32Array;
  /** IPv6 only: bits 32-63. */
  lows: Uint32Array | null;
  zones: Uint16Array;
  names: string[];
  metadata: Record<string, unknown>;
}

/** A decoded table has the same parts as the writer's input (as views into the file). */
export type IpTableData = IpTableInput;

function layout(version: 4 | 6, rangeCount: number, stringCount: number, stringBytes: number) {
  const highs = HEADER_BYTES;
  const lows = highs + 4 * rangeCount;
  const offsets = lows + (version === 6 ? 4 * rangeCount : 0);
  const zones = offsets + 4 * (stringCount + 1);
  const blob = zones + 2 * rangeCount;
  return { highs, lows, offsets, zones, blob, total: blob + stringBytes };
}

export function encodeIpTable(input: IpTableInput): Uint8Array {
  const strings = encodeStrings([...input.names, JSON.stringify(input.metadata)]);
  const stringBytes = strings.bytes;
  const count = input.highs.length;
  const at = layout(input.version, count, strings.encoded.length, stringBytes);
  const buffer = new ArrayBuffer(at.total);
  const bytes = new Uint8Array(buffer);
  const view = writeHeader(buffer, kindOf(input.version));
  [count, input.names.length, strings.encoded.length, stringBytes].forEach((v, i) => view.setUint32(12 + 4 * i, v, true));
  new Uint32Array(buffer, at.highs, count).set(input.highs);
  if (input.version === 6) new Uint32Array(buffer, at.lows, count).set(input.lows!);
  writeStrings(buffer, at.offsets, at.blob, strings);
  new Uint16Array(buffer, at.zones, count).set(input.zones);
  return bytes;
}

export function decodeIpTable(buffer: ArrayBuffer, file: string, version: 4 | 6): IpTableData {
  const { view, fail, checkLength } = openTable(buffer, file, kindOf(version));
  const [count, nameCount, stringCount, stringBytes] = [0, 1, 2, 3].map((i) => view.getUint32(12 + 4 * i, true)) as [number, number, number, number];
  if (nameCount + 1 !== stringCount || nameCount >= NO_ZONE) fail("inconsistent string counts");
  const at = layout(version, count, stringCount, stringBytes);
  checkLength(at.total);
  const strings = readStrings(buffer, at.offsets, at.blob, stringCount, stringBytes, fail);
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(strings[nameCount]!) as Record<string, unknown>;
  } catch {
    fail("source metadata is not JSON");
  }
  const highs = new Uint32Array(buffer, at.highs, count);
  const lows = version === 6 ? new Uint32Array(buffer, at.lows, count) : null;
  const zones = new Uint16Array(buffer, at.zones, count);
  if (count === 0 || highs[0] !== 0 || (lows && lows[0] !== 0)) fail("the ranges must start at address 0");
  for (let i = 0; i < count; i++) {
    if (zones[i] !== NO_ZONE && zones[i]! >= nameCount) fail(`range ${i}: zone index out of range`);
    if (i > 0) {
      const ascending = lows ? highs[i]! > highs[i - 1]! || (highs[i] === highs[i - 1] && lows[i]! > lows[i - 1]!) : highs[i]! > highs[i - 1]!;
      if (!ascending) fail(`range ${i}: ranges are not ascending`);
    }
  }
  return { version, highs, lows, zones, names: strings.slice(0, nameCount), metadata };
}
