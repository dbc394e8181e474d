// `bun run build`: compiles the pinned sources into generated/ (zones.bin, the IP
// tables, manifest.json). Flags: --tzdb-dir DIR (default data/tzdb), --out DIR (default
// $DATA_DIR or generated/), --only tz|ip.

import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_DATA_DIR, DEFAULT_TZDB_DIR } from "./paths.ts";
import { readManifest, writeManifest, type Manifest } from "./manifest.ts";
import { buildZones } from "./tzdb/build-zones.ts";

export interface BuildOptions {
  tzdbDir: string;
  outDir: string;
  only?: "tz" | "ip";
}

export async function build(options: BuildOptions): Promise<Manifest> {
  mkdirSync(options.outDir, { recursive: true });
  const builtAt = new Date().toISOString();
  const previous = await readManifest(options.outDir);
  const tzdb = options.only === "ip" && previous ? previous.tzdb : await buildZones(options.tzdbDir, options.outDir, builtAt);
  const manifest: Manifest = { manifestVersion: 1, builtAt, tzdb };
  if (previous?.ip && options.only === "tz") manifest.ip = previous.ip;
  writeManifest(options.outDir, manifest);
  return manifest;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      "tzdb-dir": { type: "string", default: DEFAULT_TZDB_DIR },
      out: { type: "string", default: process.env.DATA_DIR || DEFAULT_DATA_DIR },
      only: { type: "string" },
    },
  });
  if (values.only !== undefined && values.only !== "tz" && values.only !== "ip") {
    console.error(`build: --only must be "tz" or "ip", not "${values.only}"`);
    process.exit(2);
  }
  try {
    const m = await build({ tzdbDir: values["tzdb-dir"]!, outDir: values.out!, only: values.only as BuildOptions["only"] });
    console.log(`tzdb ${m.tzdb.version}: ${m.tzdb.names} names, ${m.tzdb.zones} zones -> ${m.tzdb.file} ` +
      `(${m.tzdb.bytes} bytes, ${m.tzdb.buildMs} ms)`);
  } catch (error) {
    console.error(`build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
