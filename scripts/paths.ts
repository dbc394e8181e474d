// Where the build reads and writes by default; every command lets a flag override them
// (tests build into temporary copies, never into the repository's own folders).

import { join, resolve } from "node:path";

export { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR } from "../server/process/default-paths.ts";
export const ROOT = resolve(import.meta.dir, "..");
export const DEFAULT_TZDB_DIR = join(ROOT, "data", "tzdb");
