// generated/tzdb-history.bin: every tzdb release we serve, compiled. Each zone's compiled
// rules are stored once per distinct version (most zones do not change between releases)
// as the zones of an embedded zones.bin table, and a matrix indexes (release, name) -> that
// version. All integers little-endian.
//
//   header (64 bytes)   magic "ZTHISTRY", u16 major, u16 minor, u32 reserved,
//                       u32 metaBytes, zonesBytes, releaseCount, nameCount
//   u8[metaBytes]       UTF-8 JSON: releases (newest first), gaps, names (the matrix's columns)
//   zero padding to a multiple of 8
//   u8[zonesBytes]      a zones.bin (zones-format.ts) whose zones are the versions; its names
//                       are every name any release had, each once
//   zero padding to a multiple of 4
//   i32[releaseCount*nameCount]  per release, per name: version * 2 + (1 if a Link), -1 absent
//   i32[factSetCount*nameCount]  (minor 1) per distinct set of .tab facts, per name: the
//                       row of meta.facts.rows it had in zone1970.tab/zone.tab, -1 none;
//                       meta.facts.setOf names each release's set (releases whose tables
//                       say the same for every name share one)
//   (minor 2) meta.zoneTabs: each release's zone.tab rows (`/timezone?country=&tzdb=`)

import { decodeZones, type ZoneTableData } from "./zones-format.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const HISTORY_FILE = "tzdb-history.bin";
const HISTORY_KIND: TableKind = { magic: "ZTHISTRY", major: 1, minor: 2, what: "tzdb history table" };
/** The minor version from which the file carries each release's .tab facts. */
const FACTS_MINOR = 1;
/** The minor version from which meta carries each release's zone.tab rows. */
const ZONE_TABS_MINOR = 2;
export const ABSENT = -1;

export interface ReleaseMeta {
  release: string;
  /** YYYY-MM-DD, from NEWS; null where no NEWS entry is at hand. */
  date: string | null;
  /** NEWS's one line. */
  summary: string;
  /** The release's whole NEWS entry ("" where none is at hand). */
  news: string;
  /** How its zic input was made (data/tzdb-releases/README.md). */
  form: string;
  names: number;
}

/** Each release's zone1970.tab/zone.tab rows and iso3166.tab names, shared where equal. */
export interface HistoryFacts {
  /** Distinct rows: ISO 3166 codes (comma-separated), ISO 6709 coordinates, comment. */
  rows: [string, string, string][];
  /** Distinct iso3166.tab contents, as `code\tname` lines. */
  countryNames: string[];
  /** Per release (the order of `releases`): its set of facts, a row of the facts matrix. */
  setOf: number[];
  /** Per release: its entry of countryNames, -1 where it had no iso3166.tab. */
  countryNamesOf: number[];
  /** How many sets the facts matrix holds. */
  sets: number;
}

/** Each release's zone.tab, as country -> names: distinct rows, and which rows each table has. */
export interface HistoryZoneTabs {
  /** Distinct `CC\tname` rows, sorted. */
  rows: string[];
  /** Distinct tables: a hex bitmap over rows, row i at digit i >> 2, bit 8 >> (i & 3). */
  tables: string[];
  /** Per release: its table, -1 where it had no zone.tab. */
  tableOf: number[];
}

export interface HistoryMeta {
  releases: ReleaseMeta[];
  /** Releases IANA published between the first and the last we serve, whose source we lack. */
  gaps: string[];
  names: string[];
  /** Absent in a minor-0 file (no facts for old releases). */
  facts?: HistoryFacts;
  /** Absent before minor 2. */
  zoneTabs?: HistoryZoneTabs;
}

export interface HistoryInput {
  meta: HistoryMeta & { facts: HistoryFacts; zoneTabs: HistoryZoneTabs };
  /** A zones.bin (encodeZones) whose zones are the versions the matrix points at. */
  zones: Uint8Array;
  matrix: Int32Array;
  /** facts.sets x names: a row of meta.facts.rows, -1 for none. */
  factMatrix: Int32Array;
}

export interface HistoryData {
  meta: HistoryMeta;
  zones: ZoneTableData;
  matrix: Int32Array;
  /** Empty in a minor-0 file. */
  factMatrix: Int32Array;
}

const pad = (n: number, to: number) => Math.ceil(n / to) * to;

export function encodeHistory(input: HistoryInput): Uint8Array {
  const meta = new TextEncoder().encode(JSON.stringify(input.meta));
  const releaseCount = input.meta.releases.length;
  const nameCount = input.meta.names.length;
  if (input.matrix.length !== releaseCount * nameCount) throw new Error("history matrix: releases x names entries expected");
  if (input.factMatrix.length !== input.meta.facts.sets * nameCount) throw new Error("history facts: sets x names entries expected");
  const zonesAt = pad(HEADER_BYTES + meta.length, 8);
  const matrixAt = pad(zonesAt + input.zones.length, 4);
  const factsAt = matrixAt + input.matrix.byteLength;
  const total = factsAt + input.factMatrix.byteLength;
  const buffer = new ArrayBuffer(total);
  const view = writeHeader(buffer, HISTORY_KIND);
  [meta.length, input.zones.length, releaseCount, nameCount].forEach((v, i) => view.setUint32(16 + 4 * i, v, true));
  const bytes = new Uint8Array(buffer);
  bytes.set(meta, HEADER_BYTES);
  bytes.set(input.zones, zonesAt);
  new Int32Array(buffer, matrixAt, input.matrix.length).set(input.matrix);
  new Int32Array(buffer, factsAt, input.factMatrix.length).set(input.factMatrix);
  return bytes;
}

export function decodeHistory(buffer: ArrayBuffer, file: string): HistoryData {
  const { view, minor, fail, checkLength } = openTable(buffer, file, HISTORY_KIND);
  const [metaBytes, zonesBytes, releaseCount, nameCount] = [0, 1, 2, 3].map((i) => view.getUint32(16 + 4 * i, true)) as [number, number, number, number];
  const zonesAt = pad(HEADER_BYTES + metaBytes, 8);
  const matrixAt = pad(zonesAt + zonesBytes, 4);
  const factsAt = matrixAt + releaseCount * nameCount * 4;
  // A file too short for its declared sections fails here, before any of them is read.
  if (factsAt > buffer.byteLength || minor < FACTS_MINOR) checkLength(factsAt);
  let meta: HistoryMeta;
  try {
    meta = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(buffer, HEADER_BYTES, metaBytes)));
  } catch (error) {
    return fail(`its release list is not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(meta.releases) || meta.releases.length !== releaseCount || !Array.isArray(meta.names) || meta.names.length !== nameCount) {
    fail("its release list does not match the header's counts");
  }
  const facts = minor >= FACTS_MINOR ? meta.facts : undefined;
  if (minor < FACTS_MINOR) delete meta.facts;
  else if (!facts || !Array.isArray(facts.rows) || !Array.isArray(facts.countryNames) || facts.setOf?.length !== releaseCount ||
    facts.countryNamesOf?.length !== releaseCount || !Number.isInteger(facts.sets) ||
    facts.setOf.some((s) => !(s >= 0 && s < facts.sets)) || facts.countryNamesOf.some((c) => !(c >= -1 && c < facts.countryNames.length))) {
    fail("its .tab facts do not match the header's counts");
  }
  if (minor < ZONE_TABS_MINOR) delete meta.zoneTabs;
  else if (!validZoneTabs(meta.zoneTabs, releaseCount)) fail("its zone.tab tables do not match the header's counts");
  const factCount = facts ? facts.sets * nameCount : 0;
  checkLength(factsAt + factCount * 4);
  const factMatrix = new Int32Array(buffer, factsAt, factCount);
  if (facts) for (const row of factMatrix) if (row < -1 || row >= facts.rows.length) fail("a .tab facts entry is out of range");
  // The embedded zones.bin is read where it lies (zonesAt is a multiple of 8, as its Float64Arrays need):
  // a copy of it was 2.5 MB of every worker's private memory beside the shared mapping.
  const zones = decodeZones(buffer, `${file} (zones)`, zonesAt, zonesBytes);
  return { meta, zones, matrix: new Int32Array(buffer, matrixAt, releaseCount * nameCount), factMatrix };
}

function validZoneTabs(z: HistoryZoneTabs | undefined, releaseCount: number): boolean {
  if (!z || !Array.isArray(z.rows) || !Array.isArray(z.tables) || z.tableOf?.length !== releaseCount) return false;
  const digits = Math.ceil(z.rows.length / 4);
  return z.tables.every((t) => typeof t === "string" && t.length === digits && /^[0-9a-f]*$/.test(t)) &&
    z.tableOf.every((t) => Number.isInteger(t) && t >= -1 && t < z.tables.length);
}
