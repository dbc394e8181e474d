// generated/zones.bin: the one definition of the binary zone table. The build writes it
// with encodeZones(), the runtime reads it with decodeZones(); nothing else knows the
// layout. All integers little-endian; every section is a typed-array view into the file,
// so loading copies nothing but the strings.
//
//   header (64 bytes)      magic "ZTZONES\0", u16 major, u16 minor, u32 reserved,
//                          u32 zoneCount, nameCount, transitionCount, typeCount,
//                          footerRuleCount, stringCount, stringBytes,
//                          versionString, builtAtString, then zero padding
//   f64[transitionCount]   transition instants, unix seconds, zone by zone, ascending
//   i32[zoneCount*6]       per zone: first transition, transition count, initial type,
//                          first footer rule, footer rule count, footer standard offset
//   i32[typeCount*4]       per local time type: utoff, save, isdst, abbreviation string
//   i32[footerRuleCount*8] per footer rule: month, day kind, day, weekday, at, at type,
//                          type, reserved
//   i32[nameCount*3]       per name: name string, zone index, isLink
//   u32[stringCount+1]     string start offsets into the UTF-8 blob, then its end
//   u16[transitionCount]   type index of each transition
//   u8[stringBytes]        UTF-8 strings, back to back
//   since minor 1, after zero padding to a multiple of 8:
//   f64[zoneCount]         per zone: zic's TZstarttime, from which the POSIX TZ string
//                          alone describes it (-Infinity: always)
//   i32[zoneCount]         per zone: its POSIX TZ string (the TZif footer), -1 for none
//   i32[nameCount*3]       per name: countries (comma-separated ISO 3166 codes), ISO 6709
//                          coordinates, comment (string indices; -1: no row in the tables)
//   and header bytes 52-55: u32 string index of the country names (`code\tname` lines), or
//   0xffffffff when the build had no iso3166.tab
//   since minor 2, after zero padding to a multiple of 8:
//   f64[zoneCount]         per zone: from when its POSIX TZ string is right for good on
//                          device libcs (device-tz.ts, footerCheck: a 400-year walk the build
//                          does once, not every worker at every start); Infinity: never;
//                          NaN: not checked (the runtime then checks it itself)
// A minor-0 file (no POSIX section) still reads: its zones answer posix_tz null. A minor-1
// file (no checks) still reads: its checks are made at run time.

import { encodeStrings, readStrings, writeStrings } from "./string-table.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";
import type { CompiledZone, DayKind, FooterRule, LocalTimeType, TimeType } from "./zone-model.ts";

/** The file name in generated/. */
export const ZONES_FILE = "zones.bin";
export const ZONES_MAGIC = "ZTZONES\0";
export const ZONES_FORMAT_MAJOR = 1;
export const ZONES_FORMAT_MINOR = 2;
/** The first minor version whose files carry the POSIX TZ section. */
const POSIX_SECTION_MINOR = 1;
/** The first minor version whose files carry the device footer checks. */
const CHECKS_SECTION_MINOR = 2;
const ZONES_KIND: TableKind = { magic: ZONES_MAGIC, major: ZONES_FORMAT_MAJOR, minor: ZONES_FORMAT_MINOR, what: "zone table" };
const ZONE_INTS = 6;
const TYPE_INTS = 4;
const FOOTER_INTS = 8;
const NAME_INTS = 3;
const FACT_INTS = 3;
const NO_STRING = 0xffffffff;

/** A row of zone1970.tab or zone.tab for one name. */
export interface ZoneFacts {
  countries: string;
  coordinates: string;
  comment: string;
}

export interface ZoneTableInput {
  tzdbVersion: string;
  builtAt: string;
  /** Per name (Zones and Links alike), from the release's .tab files; absent without them. */
  facts?: Map<string, ZoneFacts>;
  /** `code\tcountry name` lines from iso3166.tab. */
  countryNames?: string;
  zones: { name: string; compiled: CompiledZone }[];
  /** Every public name: Zones and Links, each pointing at an index into `zones`. */
  names: { name: string; zone: number; isLink: boolean }[];
  /** Per zone: its device footer check (the layout above); absent: NaN, not checked. */
  deviceFooterFrom?: ArrayLike<number>;
}

/** The decoded file: flat typed arrays, indexed as the layout above says. */
export interface ZoneTableData {
  formatMajor: number;
  formatMinor: number;
  tzdbVersion: string;
  builtAt: string;
  times: Float64Array;
  typeIndices: Uint16Array;
  zones: Int32Array;
  types: Int32Array;
  footerRules: Int32Array;
  names: Int32Array;
  /** Per zone: the instant from which posixTz alone applies; empty in a minor-0 file. */
  posixFrom: Float64Array;
  /** Per zone: the string index of its POSIX TZ string, -1 for none; empty in a minor-0 file. */
  posixTz: Int32Array;
  /** Per name: string indices of countries, coordinates, comment (-1: none); empty in a minor-0 file. */
  facts: Int32Array;
  /** `code\tname` lines of iso3166.tab; empty without them. */
  countryNames: string;
  /** Per zone: its device footer check (the layout above); empty before minor 2. */
  deviceFooterFrom: Float64Array;
  strings: string[];
}

interface Counts {
  zoneCount: number;
  nameCount: number;
  transitionCount: number;
  typeCount: number;
  footerRuleCount: number;
  stringCount: number;
  stringBytes: number;
}

function layout(c: Counts, withPosix: boolean, withChecks: boolean) {
  const times = HEADER_BYTES;
  const zones = times + 8 * c.transitionCount;
  const types = zones + 4 * ZONE_INTS * c.zoneCount;
  const footerRules = types + 4 * TYPE_INTS * c.typeCount;
  const names = footerRules + 4 * FOOTER_INTS * c.footerRuleCount;
  const stringOffsets = names + 4 * NAME_INTS * c.nameCount;
  const typeIndices = stringOffsets + 4 * (c.stringCount + 1);
  const stringBlob = typeIndices + 2 * c.transitionCount;
  const posixFrom = withPosix ? Math.ceil((stringBlob + c.stringBytes) / 8) * 8 : stringBlob + c.stringBytes;
  const posixTz = posixFrom + (withPosix ? 8 * c.zoneCount : 0);
  const facts = posixTz + (withPosix ? 4 * c.zoneCount : 0);
  const factsEnd = facts + (withPosix ? 4 * FACT_INTS * c.nameCount : 0);
  const deviceFooterFrom = withChecks ? Math.ceil(factsEnd / 8) * 8 : factsEnd;
  const total = deviceFooterFrom + (withChecks ? 8 * c.zoneCount : 0);
  return { times, zones, types, footerRules, names, stringOffsets, typeIndices, stringBlob, posixFrom, posixTz, facts, deviceFooterFrom, total };
}

export function encodeZones(input: ZoneTableInput): Uint8Array {
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const intern = (s: string) => {
    let i = stringIndex.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIndex.set(s, i);
    }
    return i;
  };
  const versionString = intern(input.tzdbVersion);
  const builtAtString = intern(input.builtAt);

  const typeKeys = new Map<string, number>();
  const typeRows: number[] = [];
  const typeOf = (t: LocalTimeType) => {
    const key = `${t.utoff}|${t.save}|${t.isdst ? 1 : 0}|${t.abbr}`;
    let i = typeKeys.get(key);
    if (i === undefined) {
      i = typeKeys.size;
      typeKeys.set(key, i);
      typeRows.push(t.utoff, t.save, t.isdst ? 1 : 0, intern(t.abbr));
    }
    return i;
  };

  const times: number[] = [];
  const typeIndices: number[] = [];
  const zoneRows: number[] = [];
  const footerRows: number[] = [];
  const posixFrom: number[] = [];
  const posixTz: number[] = [];
  for (const { compiled } of input.zones) {
    posixFrom.push(compiled.posixFrom);
    posixTz.push(compiled.posixTz === null ? -1 : intern(compiled.posixTz));
    const firstTransition = times.length;
    for (const t of compiled.transitions) {
      times.push(t.at);
      typeIndices.push(typeOf(t.type));
    }
    const firstFooter = footerRows.length / FOOTER_INTS;
    const footer = compiled.footer?.rules ?? [];
    for (const r of footer) {
      footerRows.push(r.month, r.daySpec.kind, r.daySpec.day, r.daySpec.weekday, r.at, r.atType, typeOf(r.type), 0);
    }
    zoneRows.push(firstTransition, compiled.transitions.length, typeOf(compiled.initial),
      firstFooter, footer.length, compiled.footer?.stdoff ?? 0);
  }
  const nameRows: number[] = [];
  const factRows: number[] = [];
  for (const n of input.names) {
    nameRows.push(intern(n.name), n.zone, n.isLink ? 1 : 0);
    const f = input.facts?.get(n.name);
    if (f) factRows.push(intern(f.countries), intern(f.coordinates), intern(f.comment));
    else factRows.push(-1, -1, -1);
  }
  const countryNamesString = input.countryNames === undefined ? NO_STRING : intern(input.countryNames);
  if (typeKeys.size > 0xffff) throw new Error("zones.bin: more than 65535 local time types");

  const encodedStrings = encodeStrings(strings);
  const stringBytes = encodedStrings.bytes;
  const counts: Counts = {
    zoneCount: input.zones.length,
    nameCount: input.names.length,
    transitionCount: times.length,
    typeCount: typeKeys.size,
    footerRuleCount: footerRows.length / FOOTER_INTS,
    stringCount: strings.length,
    stringBytes,
  };
  const at = layout(counts, true, true);
  const buffer = new ArrayBuffer(at.total);
  const bytes = new Uint8Array(buffer);
  const view = writeHeader(buffer, ZONES_KIND);
  const header = [counts.zoneCount, counts.nameCount, counts.transitionCount, counts.typeCount,
    counts.footerRuleCount, counts.stringCount, counts.stringBytes, versionString, builtAtString];
  header.forEach((v, i) => view.setUint32(16 + 4 * i, v, true));
  view.setUint32(52, countryNamesString, true);

  new Float64Array(buffer, at.times, times.length).set(times);
  new Int32Array(buffer, at.zones, zoneRows.length).set(zoneRows);
  new Int32Array(buffer, at.types, typeRows.length).set(typeRows);
  new Int32Array(buffer, at.footerRules, footerRows.length).set(footerRows);
  new Int32Array(buffer, at.names, nameRows.length).set(nameRows);
  writeStrings(buffer, at.stringOffsets, at.stringBlob, encodedStrings);
  new Uint16Array(buffer, at.typeIndices, typeIndices.length).set(typeIndices);
  new Float64Array(buffer, at.posixFrom, posixFrom.length).set(posixFrom);
  new Int32Array(buffer, at.posixTz, posixTz.length).set(posixTz);
  new Int32Array(buffer, at.facts, factRows.length).set(factRows);
  const checks = new Float64Array(buffer, at.deviceFooterFrom, counts.zoneCount).fill(NaN);
  if (input.deviceFooterFrom !== undefined) checks.set(input.deviceFooterFrom);
  return bytes;
}

/**
 * Reads and validates a zones.bin image; every failure names `file`. `start` and `length`:
 * an image embedded in a bigger buffer (tzdb-history.bin's), read in place, not copied.
 */
export function decodeZones(buffer: ArrayBuffer, file: string, start = 0, length = buffer.byteLength - start): ZoneTableData {
  const { view, minor: formatMinor, fail, checkLength } = openTable(buffer, file, ZONES_KIND, start, length);
  const formatMajor = ZONES_FORMAT_MAJOR;
  const u = (i: number) => view.getUint32(16 + 4 * i, true);
  const counts: Counts = {
    zoneCount: u(0), nameCount: u(1), transitionCount: u(2), typeCount: u(3),
    footerRuleCount: u(4), stringCount: u(5), stringBytes: u(6),
  };
  const versionString = u(7);
  const builtAtString = u(8);
  const withPosix = formatMinor >= POSIX_SECTION_MINOR;
  const withChecks = formatMinor >= CHECKS_SECTION_MINOR;
  const at = layout(counts, withPosix, withChecks);
  checkLength(at.total);

  const strings = readStrings(buffer, start + at.stringOffsets, start + at.stringBlob, counts.stringCount, counts.stringBytes, fail);
  const data: ZoneTableData = {
    formatMajor,
    formatMinor,
    tzdbVersion: strings[versionString] ?? fail("tzdb version string index out of range"),
    builtAt: strings[builtAtString] ?? fail("build time string index out of range"),
    times: new Float64Array(buffer, start + at.times, counts.transitionCount),
    typeIndices: new Uint16Array(buffer, start + at.typeIndices, counts.transitionCount),
    zones: new Int32Array(buffer, start + at.zones, counts.zoneCount * ZONE_INTS),
    types: new Int32Array(buffer, start + at.types, counts.typeCount * TYPE_INTS),
    footerRules: new Int32Array(buffer, start + at.footerRules, counts.footerRuleCount * FOOTER_INTS),
    names: new Int32Array(buffer, start + at.names, counts.nameCount * NAME_INTS),
    posixFrom: withPosix ? new Float64Array(buffer, start + at.posixFrom, counts.zoneCount) : new Float64Array(0),
    posixTz: withPosix ? new Int32Array(buffer, start + at.posixTz, counts.zoneCount) : new Int32Array(0),
    facts: withPosix ? new Int32Array(buffer, start + at.facts, counts.nameCount * FACT_INTS) : new Int32Array(0),
    countryNames: "",
    deviceFooterFrom: withChecks ? new Float64Array(buffer, start + at.deviceFooterFrom, counts.zoneCount) : new Float64Array(0),
    strings,
  };
  validateReferences(data, counts, fail);
  const countryNamesString = withPosix ? view.getUint32(52, true) : NO_STRING;
  if (countryNamesString !== NO_STRING) data.countryNames = strings[countryNamesString] ?? fail("country names string index out of range");
  return data;
}

/** A name's facts in order: ISO 3166 codes (comma-separated) and ISO 6709 coordinates as the .tab files write them; the comment is free text. */
const FACT_SHAPES = [/^[A-Z]{2}(?:,[A-Z]{2})*$/, /^[+-]\d{4}(?:\d{2})?[+-]\d{5}(?:\d{2})?$/];

/** The characters of every tzdb name (Etc/GMT+5, America/Port-au-Prince). */
const TZ_NAME = /^[A-Za-z0-9_+\-]+(?:\/[A-Za-z0-9_+\-]+)*$/;

/** Every index in the file points inside its section, so lookups never read garbage. */
function validateReferences(d: ZoneTableData, c: Counts, fail: (reason: string) => never): void {
  for (let z = 0; z < c.zoneCount; z++) {
    const [first, count, initial, footerFirst, footerCount] = d.zones.subarray(z * ZONE_INTS, z * ZONE_INTS + 5);
    if (first! < 0 || count! < 0 || first! + count! > c.transitionCount) fail(`zone ${z}: transitions out of range`);
    if (initial! < 0 || initial! >= c.typeCount) fail(`zone ${z}: initial type out of range`);
    if (footerFirst! < 0 || footerCount! < 0 || footerFirst! + footerCount! > c.footerRuleCount) fail(`zone ${z}: footer rules out of range`);
    for (let i = first! + 1; i < first! + count!; i++) {
      if (!(d.times[i]! > d.times[i - 1]!)) fail(`zone ${z}: transition times are not ascending`);
    }
  }
  for (let i = 0; i < c.transitionCount; i++) {
    if (d.typeIndices[i]! >= c.typeCount) fail(`transition ${i}: type out of range`);
  }
  for (let t = 0; t < c.typeCount; t++) {
    const abbr = d.types[t * TYPE_INTS + 3]!;
    if (abbr < 0 || abbr >= c.stringCount) fail(`type ${t}: abbreviation out of range`);
  }
  for (let r = 0; r < c.footerRuleCount; r++) {
    const row = d.footerRules.subarray(r * FOOTER_INTS, r * FOOTER_INTS + FOOTER_INTS);
    if (row[0]! < 1 || row[0]! > 12 || row[1]! < 0 || row[1]! > 3 || row[3]! < 0 || row[3]! > 6 ||
      row[5]! < 0 || row[5]! > 2 || row[6]! < 0 || row[6]! >= c.typeCount) {
      fail(`footer rule ${r} is out of range`);
    }
  }
  for (let z = 0; z < d.posixTz.length; z++) {
    const tz = d.posixTz[z]!;
    if (tz < -1 || tz >= c.stringCount) fail(`zone ${z}: POSIX TZ string out of range`);
  }
  for (let z = 0; z < d.deviceFooterFrom.length; z++) {
    // A check is made or not (NaN), and holds from the zone's TZstarttime or never.
    const from = d.deviceFooterFrom[z]!;
    if (!Number.isNaN(from) && from !== Infinity && from !== d.posixFrom[z]) fail(`zone ${z}: device footer check is not its TZ string's start`);
  }
  for (let i = 0; i < d.facts.length; i++) {
    const f = d.facts[i]!;
    if (f < -1 || f >= c.stringCount) fail(`name ${Math.floor(i / FACT_INTS)}: facts out of range`);
    // Zeroed indices still point at a string (string 0): the facts must look like facts.
    const shape = FACT_SHAPES[i % FACT_INTS];
    if (f !== -1 && shape !== undefined && !shape.test(d.strings[f]!)) fail(`name ${Math.floor(i / FACT_INTS)}: facts are not countries and coordinates`);
  }
  for (let n = 0; n < c.nameCount; n++) {
    const name = d.names[n * NAME_INTS]!;
    const zone = d.names[n * NAME_INTS + 1]!;
    if (name < 0 || name >= c.stringCount || zone < 0 || zone >= c.zoneCount) fail(`name ${n} is out of range`);
    // Zeroed or overwritten strings still decode as UTF-8; a name must look like one.
    if (!TZ_NAME.test(d.strings[name]!)) fail(`name ${n} is not a timezone name`);
  }
}

/** Reconstructs a footer rule row (for the runtime's footer evaluator). */
export function footerRuleAt(d: ZoneTableData, index: number, typeOf: (i: number) => LocalTimeType): FooterRule {
  const o = index * FOOTER_INTS;
  const r = d.footerRules;
  return {
    month: r[o]!,
    daySpec: { kind: r[o + 1]! as DayKind, day: r[o + 2]!, weekday: r[o + 3]! },
    at: r[o + 4]!,
    atType: r[o + 5]! as TimeType,
    save: d.types[r[o + 6]! * TYPE_INTS + 1]!,
    type: typeOf(r[o + 6]!),
  };
}

export const ZONE_RECORD_INTS = ZONE_INTS;
export const TYPE_RECORD_INTS = TYPE_INTS;
export const NAME_RECORD_INTS = NAME_INTS;
export const FACT_RECORD_INTS = FACT_INTS;
