// generated/manifest.json as the server reads it: the build's record of what it wrote
// (versions, sources, and each table's length and sha256). The reader checks the shape
// of every field the server uses, so that `null` or a half-written file is refused with a
// message naming the file and the field, instead of surfacing later as a 500 on /health.

import { join } from "node:path";
import { ZonetimeError } from "../errors.ts";

export const MANIFEST_FILE = "manifest.json";

export interface TableFileEntry {
  name: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  manifestVersion: 1;
  builtAt: string;
  tzdb: { version: string; file: string; sha256: string; bytes: number } & Record<string, unknown>;
  ip: { source: string; version: string; dataDate: string; files: TableFileEntry[] } & Record<string, unknown>;
}

/** A manifest.json that is missing, not JSON, or not the build's shape; the message names the file and the field. */
export class ManifestError extends ZonetimeError {
  readonly file: string;

  constructor(file: string, reason: string) {
    super("manifest", 500, `${file}: ${reason}`);
    this.file = file;
  }
}

type Shape = "string" | "number" | { [key: string]: Shape } | [Shape];

const FILE_ENTRY: Shape = { name: "string", bytes: "number", sha256: "string" };
const SHAPE: Shape = {
  manifestVersion: "number",
  builtAt: "string",
  tzdb: { version: "string", file: "string", sha256: "string", bytes: "number" },
  ip: { source: "string", version: "string", dataDate: "string", files: [FILE_ENTRY] },
};

/** Where `value` first departs from `shape`, as "field: what is wrong", or null. */
function mismatch(value: unknown, shape: Shape, at: string): string | null {
  const where = at || "the manifest";
  if (shape === "string" || shape === "number") {
    const fits = typeof value === shape && (shape === "string" || Number.isFinite(value));
    return fits ? null : `${where} must be a ${shape}`;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `${where} must be an array`;
    for (const [i, item] of value.entries()) {
      const bad = mismatch(item, shape[0], `${at}[${i}]`);
      if (bad) return bad;
    }
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${where} must be an object`;
  for (const [key, inner] of Object.entries(shape)) {
    const bad = mismatch((value as Record<string, unknown>)[key], inner, at ? `${at}.${key}` : key);
    if (bad) return bad;
  }
  return null;
}

/** Checks parsed JSON against the shape above; `file` names the source in the error. */
export function parseManifest(json: unknown, file: string): Manifest {
  const bad = mismatch(json, SHAPE, "");
  if (bad) throw new ManifestError(file, bad);
  const manifest = json as Manifest; // every field the server reads was checked just above
  if (manifest.manifestVersion !== 1) throw new ManifestError(file, `unknown manifestVersion ${manifest.manifestVersion}`);
  return manifest;
}

/** The manifest in `dataDir`, or null when there is none; one that is there but wrong throws ManifestError. */
export async function readManifest(dataDir: string): Promise<Manifest | null> {
  const path = join(dataDir, MANIFEST_FILE);
  const file = Bun.file(path);
  if (!(await file.exists())) return null;
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch (error) {
    throw new ManifestError(path, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseManifest(json, path);
}
