// Where the build reads and writes by default; every command lets a flag override them
// (tests build into temporary copies, never into the repository's own folders). The
// service looks in the same two places (server/process/default-paths.ts).

import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
export const DEFAULT_TZDB_DIR = join(ROOT, "data", "tzdb");
export const DEFAULT_DATA_DIR = join(ROOT, "generated");
export const DEFAULT_SITE_DIR = join(ROOT, "site", "dist");
