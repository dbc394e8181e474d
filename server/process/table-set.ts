// One generation of generated/: the manifest and the bytes of every table the server
// reads, each checked against the length and sha256 the manifest records for it. The
// manifest is read first and is the commit point (the build writes a whole new set beside
// the old one and switches to it by renaming manifest.json, see scripts/table-set-writer.ts),
// so tables from another build, a half-written one or bit rot are refused as a whole set,
// never taken one by one: never new zones with old IP tables.
//
// Why sealed memory files: a table in DATA_DIR can be changed underneath a running service
// (cp over it, rsync --inplace, a config tool, a shared volume, truncate). A mapping of the
// file itself then faults (SIGBUS: every worker dies) or serves bytes nobody checked. So
// every table is copied once into a memfd sealed against writing, growing and shrinking
// (core/mapped-memory.ts), checked there, and served from there: what was checked is what
// is served until a SIGHUP brings a new checked set, whatever happens to the files. The
// supervisor makes the sealed set and hands its descriptors to every worker, which map the
// same pages (MAP_SHARED, PROT_READ): the tables are in RAM once per instance, not once per
// worker, which a private copy per process would cost (about 40 MB each today, more with
// each new table). Each worker still checks the seals and the sha256 of what it maps (about
// 75 ms), so a descriptor it was handed is never trusted blindly. Where memfd is missing
// (not Linux), each process keeps a private copy read through O_RDONLY instead.

import { closeSync, fstatSync, openSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { TableFormatError } from "../core/errors.ts";
import { canSeal, isSealed, MAP_SHARED, mapReadOnly, sealedBytes, sealedCopy } from "../core/mapped-memory.ts";
import { ManifestError, MANIFEST_FILE, parseManifest, type Manifest } from "../formats/manifest.ts";
import { GEO_FILE } from "../formats/geo-format.ts";
import { IPV4_FILE, IPV6_FILE } from "../formats/ip-format.ts";
import { PLACES_FILE } from "../formats/places-format.ts";
import { ZONES_FILE } from "../formats/zones-format.ts";
import { NAMES_FILE } from "../formats/names-format.ts";
import { HISTORY_FILE } from "../formats/history-format.ts";

export const TABLE_FILES = [ZONES_FILE, IPV4_FILE, IPV6_FILE, GEO_FILE, NAMES_FILE, PLACES_FILE, HISTORY_FILE] as const;
export type TableFile = (typeof TABLE_FILES)[number];

/** The sealed descriptors of a set, to hand to workers: the manifest's and each table's, by file name. */
export interface SetDescriptors {
  /** Names this set's memory files (`/memfd:zonetime:GENERATION:FILE`), so a worker can tell it got the set it was told of. */
  generation: string;
  fds: Record<string, number>;
}

export interface TableSet {
  manifest: Manifest;
  /** The path (or origin) and checked bytes of each table. */
  tables: Record<TableFile, { path: string; buffer: ArrayBuffer }>;
  /** Open sealed descriptors (readTableSet with keepDescriptors), else null. */
  descriptors: SetDescriptors | null;
  /** Closes the descriptors; the mappings stay valid. */
  close(): void;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A build may switch sets between the manifest's read and a table's open; then the read starts over. */
const ATTEMPTS = 3;
let generations = 0;

type Entry = { name: string; bytes: number; sha256: string };

function listedEntries(manifest: Manifest, manifestPath: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const listed = [{ name: manifest.tzdb.file, bytes: manifest.tzdb.bytes, sha256: manifest.tzdb.sha256 }, ...manifest.ip.files, manifest.geo.file, manifest.names.file, manifest.places.file, manifest.history.file];
  for (const entry of listed) {
    if (!/^[A-Za-z0-9._-]+$/.test(entry.name) || entry.name.startsWith(".")) throw new ManifestError(manifestPath, `"${entry.name}" is not a file name in the data folder`);
    if (!SHA256_HEX.test(entry.sha256)) throw new ManifestError(manifestPath, `the sha256 of ${entry.name} is not 64 lowercase hex digits`);
    entries.set(entry.name, entry);
  }
  for (const name of TABLE_FILES) if (!entries.has(name)) throw new ManifestError(manifestPath, `lists no checksum for ${name}`);
  return entries;
}

/** The length and sha256 of `buffer` are what the manifest records, or the error names `path`. */
function check(buffer: ArrayBuffer, entry: Entry, path: string): void {
  if (buffer.byteLength !== entry.bytes) {
    throw new TableFormatError(path, `length mismatch: ${buffer.byteLength} bytes where ${MANIFEST_FILE} records ${entry.bytes} (truncated, from another build, or a build still writing)`);
  }
  const actual = new Bun.CryptoHasher("sha256").update(new Uint8Array(buffer)).digest("hex");
  if (actual !== entry.sha256) {
    throw new TableFormatError(path, `sha256 ${actual} is not the ${entry.sha256} ${MANIFEST_FILE} records (corrupted, or from another build)`);
  }
}

const mapSealed = (fd: number, length: number) => (length === 0 ? new ArrayBuffer(0) : mapReadOnly(fd, length, MAP_SHARED));

const closeAll = (fds: Iterable<number>) => {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
};

/** A missing file: the build may have switched sets (and removed the old one) since the manifest was read. */
class Vanished extends Error {}

/**
 * Reads the set DATA_DIR's manifest.json names into sealed memory and checks it. With
 * `keepDescriptors` the sealed descriptors stay open (the supervisor hands them to workers);
 * otherwise they are closed once mapped.
 */
export async function readTableSet(dataDir: string, options: { keepDescriptors?: boolean } = {}): Promise<TableSet> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(dataDir, options.keepDescriptors ?? false, attempt === ATTEMPTS);
    } catch (error) {
      if (!(error instanceof Vanished)) throw error;
    }
  }
}

async function readOnce(dataDir: string, keep: boolean, lastAttempt: boolean): Promise<TableSet> {
  const manifestPath = join(dataDir, MANIFEST_FILE);
  const file = Bun.file(manifestPath);
  // Read asynchronously: a manifest that is slow to come (a FIFO, a network volume) holds this load, not the process.
  if (!(await file.exists())) throw new ManifestError(manifestPath, "missing: nothing to check the tables against; run `bun run build`");
  const manifestBytes = await file.bytes();
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch (error) {
    throw new ManifestError(manifestPath, `not JSON (${(error as Error).message})`);
  }
  const manifest = parseManifest(json, manifestPath);
  const entries = listedEntries(manifest, manifestPath);
  const setDir = manifest.set === undefined ? dataDir : join(dataDir, manifest.set);
  const sealing = canSeal();
  const generation = `${process.pid}.${++generations}`;
  const fds: Record<string, number> = {};
  try {
    if (sealing && keep) fds[MANIFEST_FILE] = sealedBytes(manifestBytes, `zonetime:${generation}:${MANIFEST_FILE}`);
    // Every table opened first: once open, a file the build removes stays readable.
    const sources = new Map<TableFile, number>();
    try {
      for (const name of TABLE_FILES) {
        const path = join(setDir, name);
        try {
          sources.set(name, openSync(path, "r"));
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === "ENOENT" && !lastAttempt) throw new Vanished(path);
          throw new TableFormatError(path, code === "ENOENT" ? "missing: run `bun run build`" : `unreadable (${code ?? String(error)})`);
        }
      }
      const tables = {} as TableSet["tables"];
      for (const name of TABLE_FILES) {
        const path = join(setDir, name);
        const source = sources.get(name)!;
        let buffer: ArrayBuffer;
        if (sealing) {
          const sealed = sealedCopy(source, `zonetime:${generation}:${name}`);
          fds[name] = sealed.fd;
          buffer = mapSealed(sealed.fd, sealed.length);
        } else {
          buffer = new Uint8Array(readFileSync(source)).buffer as ArrayBuffer;
        }
        check(buffer, entries.get(name)!, path);
        tables[name] = { path, buffer };
      }
      if (!keep) closeAll(Object.values(fds));
      const descriptors = keep && sealing ? { generation, fds } : null;
      return { manifest, tables, descriptors, close: () => closeAll(Object.values(descriptors?.fds ?? {})) };
    } finally {
      closeAll(sources.values());
    }
  } catch (error) {
    closeAll(Object.values(fds));
    throw error;
  }
}

/**
 * The set a supervisor sealed, through descriptors this process holds (inherited, or opened
 * through /proc/PID/fd): each must be a sealed memory file of `generation`, and every table
 * is checked against the manifest that came with it.
 */
export function tableSetFromDescriptors(descriptors: SetDescriptors, origin: string): TableSet {
  const { generation, fds } = descriptors;
  const sealedOf = (name: string) => {
    const fd = fds[name];
    const what = `${name} (${origin}, generation ${generation})`;
    if (fd === undefined) throw new TableFormatError(what, "not handed over");
    const link = readlinkSync(`/proc/self/fd/${fd}`);
    if (!link.startsWith(`/memfd:zonetime:${generation}:${name}`)) throw new TableFormatError(what, `descriptor ${fd} is ${link}, not this set's memory file`);
    if (!isSealed(fd)) throw new TableFormatError(what, `descriptor ${fd} is not sealed against writing`);
    return { fd, length: fstatSync(fd).size, what };
  };
  const manifestFd = sealedOf(MANIFEST_FILE);
  const manifestPath = manifestFd.what;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(readFileSync(`/proc/self/fd/${manifestFd.fd}`)));
  } catch (error) {
    throw new ManifestError(manifestPath, `not JSON (${(error as Error).message})`);
  }
  const manifest = parseManifest(json, manifestPath);
  const entries = listedEntries(manifest, manifestPath);
  const tables = {} as TableSet["tables"];
  for (const name of TABLE_FILES) {
    const sealed = sealedOf(name);
    const buffer = mapSealed(sealed.fd, sealed.length);
    check(buffer, entries.get(name)!, sealed.what);
    tables[name] = { path: sealed.what, buffer };
  }
  return { manifest, tables, descriptors, close: () => closeAll(Object.values(fds)) };
}
