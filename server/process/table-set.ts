// One generation of generated/: the manifest and the bytes of every table the server
// reads, each checked against the length and sha256 the manifest records for it. The
// manifest is read first and is the commit point (the build writes it last, atomically),
// so tables from another build, a half-written one or bit rot are refused as a whole set,
// never taken one by one: never new zones with old IP tables. What is returned is the
// very mapping that was hashed (formats/map-table.ts: read-only, and the build replaces a
// table by rename, never in place), so nothing can change between the check and the decode.

import { join } from "node:path";
import { TableFormatError } from "../core/errors.ts";
import { ManifestError, MANIFEST_FILE, readManifest, type Manifest } from "../formats/manifest.ts";
import { GEO_FILE } from "../formats/geo-format.ts";
import { IPV4_FILE, IPV6_FILE } from "../formats/ip-format.ts";
import { mapTable } from "../formats/map-table.ts";
import { PLACES_FILE } from "../formats/places-format.ts";
import { ZONES_FILE } from "../formats/zones-format.ts";
import { NAMES_FILE } from "../formats/names-format.ts";

export const TABLE_FILES = [ZONES_FILE, IPV4_FILE, IPV6_FILE, GEO_FILE, NAMES_FILE, PLACES_FILE] as const;
export type TableFile = (typeof TABLE_FILES)[number];

export interface TableSet {
  manifest: Manifest;
  /** The path and checked bytes of each table. */
  tables: Record<TableFile, { path: string; buffer: ArrayBuffer }>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export async function readTableSet(dataDir: string): Promise<TableSet> {
  const manifestPath = join(dataDir, MANIFEST_FILE);
  const manifest = await readManifest(dataDir);
  if (manifest === null) throw new ManifestError(manifestPath, "missing: nothing to check the tables against; run `bun run build`");
  const entries = new Map<string, Manifest["ip"]["files"][number]>();
  const listed = [{ name: manifest.tzdb.file, bytes: manifest.tzdb.bytes, sha256: manifest.tzdb.sha256 }, ...manifest.ip.files, manifest.geo.file, manifest.names.file, manifest.places.file];
  for (const entry of listed) {
    if (!/^[A-Za-z0-9._-]+$/.test(entry.name) || entry.name.startsWith(".")) throw new ManifestError(manifestPath, `"${entry.name}" is not a file name in the data folder`);
    if (!SHA256_HEX.test(entry.sha256)) throw new ManifestError(manifestPath, `the sha256 of ${entry.name} is not 64 lowercase hex digits`);
    entries.set(entry.name, entry);
  }
  const read = (name: TableFile) => {
    const path = join(dataDir, name);
    const entry = entries.get(name);
    if (entry === undefined) throw new ManifestError(manifestPath, `lists no checksum for ${name}`);
    const buffer = mapTable(path);
    if (buffer.byteLength !== entry.bytes) {
      throw new TableFormatError(path, `length mismatch: ${buffer.byteLength} bytes where ${MANIFEST_FILE} records ${entry.bytes} (truncated, from another build, or a build still writing)`);
    }
    const actual = new Bun.CryptoHasher("sha256").update(new Uint8Array(buffer)).digest("hex");
    if (actual !== entry.sha256) {
      throw new TableFormatError(path, `sha256 ${actual} is not the ${entry.sha256} ${MANIFEST_FILE} records (corrupted, or from another build)`);
    }
    return { path, buffer };
  };
  return { manifest, tables: Object.fromEntries(TABLE_FILES.map((name) => [name, read(name)])) as TableSet["tables"] };
}
