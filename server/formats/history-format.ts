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

import { decodeZones, type ZoneTableData } from "./zones-format.ts";
import { HEADER_BYTES, openTable, writeHeader, type TableKind } from "./table-header.ts";

export const HISTORY_FILE = "tzdb-history.bin";
const HISTORY_KIND: TableKind = { magic: "ZTHISTRY", major: 1, minor: 0, what: "tzdb history table" };
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

export interface HistoryMeta {
  releases: ReleaseMeta[];
  /** Releases IANA published between the first and the last we serve, whose source we lack. */
  gaps: string[];
  names: string[];
}

export interface HistoryInput {
  meta: HistoryMeta;
  /** A zones.bin (encodeZones) whose zones are the versions the matrix points at. */
  zones: Uint8Array;
  matrix: Int32Array;
}

export interface HistoryData {
  meta: HistoryMeta;
  zones: ZoneTableData;
  matrix: Int32Array;
}

const pad = (n: number, to: number) => Math.ceil(n / to) * to;

export function encodeHistory(input: HistoryInput): Uint8Array {
  const meta = new TextEncoder().encode(JSON.stringify(input.meta));
  const releaseCount = input.meta.releases.length;
  const nameCount = input.meta.names.length;
  if (input.matrix.length !== releaseCount * nameCount) throw new Error("history matrix: releases x names entries expected");
  const zonesAt = pad(HEADER_BYTES + meta.length, 8);
  const matrixAt = pad(zonesAt + input.zones.length, 4);
  const total = matrixAt + input.matrix.byteLength;
  const buffer = new ArrayBuffer(total);
  const view = writeHeader(buffer, HISTORY_KIND);
  [meta.length, input.zones.length, releaseCount, nameCount].forEach((v, i) => view.setUint32(16 + 4 * i, v, true));
  const bytes = new Uint8Array(buffer);
  bytes.set(meta, HEADER_BYTES);
  bytes.set(input.zones, zonesAt);
  new Int32Array(buffer, matrixAt, input.matrix.length).set(input.matrix);
  return bytes;
}

export function decodeHistory(buffer: ArrayBuffer, file: string): HistoryData {
  const { view, fail, checkLength } = openTable(buffer, file, HISTORY_KIND);
  const [metaBytes, zonesBytes, releaseCount, nameCount] = [0, 1, 2, 3].map((i) => view.getUint32(16 + 4 * i, true)) as [number, number, number, number];
  const zonesAt = pad(HEADER_BYTES + metaBytes, 8);
  const matrixAt = pad(zonesAt + zonesBytes, 4);
  checkLength(matrixAt + releaseCount * nameCount * 4);
  let meta: HistoryMeta;
  try {
    meta = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(buffer, HEADER_BYTES, metaBytes)));
  } catch (error) {
    return fail(`its release list is not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(meta.releases) || meta.releases.length !== releaseCount || !Array.isArray(meta.names) || meta.names.length !== nameCount) {
    fail("its release list does not match the header's counts");
  }
  // The embedded zones.bin is read as a file of its own (its offsets start at 0): one copy.
  const zones = decodeZones(buffer.slice(zonesAt, zonesAt + zonesBytes), `${file} (zones)`);
  return { meta, zones, matrix: new Int32Array(buffer, matrixAt, releaseCount * nameCount) };
}
