// Where the service looks for its tables and its website unless DATA_DIR / SITE_DIR say
// otherwise: beside the code, whatever the working directory.

import { join } from "node:path";

export const DEFAULT_DATA_DIR = join(import.meta.dir, "..", "..", "generated");
export const DEFAULT_SITE_DIR = join(import.meta.dir, "..", "..", "site", "dist");
