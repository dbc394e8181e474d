// Runs the service as configured: one process (WORKERS=1) or a supervisor and its
// workers. The process entry for `bun run start` (after it builds) and for containers.

import { join } from "node:path";
import { ConfigError, readConfig, type Config } from "./config.ts";
import { logError } from "./log.ts";
import { handleSignals, startServer } from "./main.ts";
import { supervise } from "./supervisor.ts";

export const DEFAULT_DATA_DIR = join(import.meta.dir, "..", "generated");

export async function runService(config: Config): Promise<void> {
  if (config.workers === 1) {
    handleSignals(await startServer(config));
  } else {
    await supervise(config);
  }
}

if (import.meta.main) {
  try {
    await runService(readConfig(process.env, DEFAULT_DATA_DIR));
  } catch (error) {
    logError(error instanceof ConfigError ? "bad_configuration" : "start_failed", error);
    process.exit(1);
  }
}
