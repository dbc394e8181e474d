// generated/manifest.json: what the build produced, from which sources, with checksums.
// scripts/ writes it (scripts/manifest.ts); the server reports it on /health and /metrics,
// the site shows it, and `bun run start` compares it with the sources to decide whether to
// rebuild. This module is its one schema, and its reader checks every field it declares,
// so nobody downstream reads it through a cast.

import { join } from "node:path";
import { ZonetimeError } from "../core/errors.ts";

export const MANIFEST_FILE = "manifest.json";

export interface ZonesManifest {
  version: string;
  sourceSha256: string;
  zones: number;
  names: number;
  horizonYear: number;
  file: string;
  sha256: string;
  bytes: number;
  buildMs: number;
}

export interface IpManifest {
  source: string;
  version: string;
  dataDate: string;
  license: string;
  credit: { text: string; url: string };
  ranges: { v4: number; v6: number };
  /** IPv6 /64s inside which the source places networks in different zones (the lowest located one is kept). */
  splitV6Prefixes: number;
  /** Names the source produced that our tzdb lacks, with how many ranges each (stored as unknown). */
  unknownZones: Record<string, number>;
  files: { name: string; bytes: number; sha256: string }[];
  buildMs: number;
}

export interface GeoManifest {
  source: string;
  version: string;
  product: string;
  boundaryRelease: string;
  license: string;
  credit: { text: string; url: string };
  zones: number;
  /** What the compiler made: leaves, nodes, cells, shared edges... (scripts/geo/compile-geo.ts). */
  stats: Record<string, number>;
  file: { name: string; bytes: number; sha256: string };
  buildMs: number;
}

export interface NamesManifest {
  source: string;
  version: string;
  license: string;
  /** What the compiler made: locales, metazones, zones, regions, search keys, strings. */
  stats: Record<string, number>;
  file: { name: string; bytes: number; sha256: string };
  buildMs: number;
}

export interface PlacesManifest {
  source: string;
  version: string;
  /** The newest modification date among the places (how fresh the GeoNames dump is). */
  dataDate: string;
  license: string;
  credit: { text: string; url: string };
  places: number;
  keys: number;
  heavyPrefixes: number;
  file: { name: string; bytes: number; sha256: string };
  buildMs: number;
}

/** Every tzdb release served (generated/tzdb-history.bin, scripts/tzdb/history/build-history.ts). */
export interface HistoryManifest {
  /** Newest (the default) first. */
  releases: string[];
  /** Releases between the first and the last served whose source we lack. */
  gaps: string[];
  /** Names any release had. */
  names: number;
  /** Distinct compiled zones stored. */
  versions: number;
  file: { name: string; bytes: number; sha256: string };
  buildMs: number;
}

export interface Manifest {
  manifestVersion: 1;
  builtAt: string;
  /**
   * The folder of the data folder that holds the tables, `sets/ID` (the build writes each
   * set into a folder of its own and switches by renaming manifest.json); absent when they
   * sit beside the manifest (a set's own copy of its manifest, older builds, copies by hand).
   */
  set?: string;
  tzdb: ZonesManifest;
  geo: GeoManifest;
  ip: IpManifest;
  names: NamesManifest;
  places: PlacesManifest;
  history: HistoryManifest;
}

/** A manifest.json that is not JSON or not the shape above; the message names the file and the field. */
export class ManifestError extends ZonetimeError {
  readonly file: string;

  constructor(file: string, reason: string) {
    super("manifest", 500, `${file}: ${reason}`);
    this.file = file;
  }
}

type Check = "string" | "number" | { [key: string]: Check } | ["array", Check] | ["record", Check];

const FILE_ENTRY: Check = { name: "string", bytes: "number", sha256: "string" };
const SCHEMA: Check = {
  manifestVersion: "number",
  builtAt: "string",
  tzdb: {
    version: "string", sourceSha256: "string", zones: "number", names: "number", horizonYear: "number",
    file: "string", sha256: "string", bytes: "number", buildMs: "number",
  },
  geo: {
    source: "string", version: "string", product: "string", boundaryRelease: "string", license: "string",
    credit: { text: "string", url: "string" }, zones: "number", stats: ["record", "number"], file: FILE_ENTRY, buildMs: "number",
  },
  ip: {
    source: "string", version: "string", dataDate: "string", license: "string",
    credit: { text: "string", url: "string" }, ranges: { v4: "number", v6: "number" },
    splitV6Prefixes: "number", unknownZones: ["record", "number"], files: ["array", FILE_ENTRY], buildMs: "number",
  },
  names: { source: "string", version: "string", license: "string", stats: ["record", "number"], file: FILE_ENTRY, buildMs: "number" },
  places: {
    source: "string", version: "string", dataDate: "string", license: "string", credit: { text: "string", url: "string" },
    places: "number", keys: "number", heavyPrefixes: "number", file: FILE_ENTRY, buildMs: "number",
  },
  history: {
    releases: ["array", "string"], gaps: ["array", "string"], names: "number", versions: "number", file: FILE_ENTRY, buildMs: "number",
  },
};

/** The first place where `value` departs from `check`, as `field: what is wrong`, or null. */
function mismatch(value: unknown, check: Check, at: string): string | null {
  const where = at === "" ? "the manifest" : at;
  if (check === "string" || check === "number") {
    return typeof value === check && (check === "string" || Number.isFinite(value)) ? null : `${where} must be a ${check}`;
  }
  if (Array.isArray(check)) {
    const [kind, item] = check;
    if (kind === "array") {
      if (!Array.isArray(value)) return `${where} must be an array`;
      for (const [i, element] of value.entries()) {
        const bad = mismatch(element, item, `${at}[${i}]`);
        if (bad) return bad;
      }
      return null;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `${where} must be an object`;
    for (const [key, element] of Object.entries(value)) {
      const bad = mismatch(element, item, `${at}.${key}`);
      if (bad) return bad;
    }
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${where} must be an object`;
  for (const [key, inner] of Object.entries(check)) {
    const bad = mismatch((value as Record<string, unknown>)[key], inner, at === "" ? key : `${at}.${key}`);
    if (bad) return bad;
  }
  return null;
}

/** Where a set's tables may live: one folder under sets/, never outside the data folder. */
export const SET_FOLDER = /^sets\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Checks parsed JSON against the schema; `file` names the source in the error. */
export function parseManifest(json: unknown, file: string): Manifest {
  const bad = mismatch(json, SCHEMA, "");
  if (bad) throw new ManifestError(file, bad);
  const manifest = json as Manifest; // every declared field checked just above
  if (manifest.manifestVersion !== 1) throw new ManifestError(file, `unknown manifestVersion ${manifest.manifestVersion}`);
  if (manifest.set !== undefined && (typeof manifest.set !== "string" || !SET_FOLDER.test(manifest.set))) {
    throw new ManifestError(file, `set must be a folder sets/ID of the data folder, not ${JSON.stringify(manifest.set)}`);
  }
  return manifest;
}

/** The manifest in `dataDir`, or null when there is none; a file that is there but wrong throws ManifestError. */
export async function readManifest(dataDir: string): Promise<Manifest | null> {
  const path = join(dataDir, MANIFEST_FILE);
  const file = Bun.file(path);
  if (!(await file.exists())) return null;
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch (error) {
    throw new ManifestError(path, `not JSON (${(error as Error).message})`);
  }
  return parseManifest(json, path);
}
