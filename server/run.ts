// Runs the service as configured: one process (WORKERS=1) or a supervisor and its
// workers. The process entry for `bun run start` (after it builds) and for containers.

import { ConfigError, readConfig, type Config } from "./config.ts";
import { logError } from "./log.ts";
import { startServer } from "./main.ts";
import { installSignalHandlers } from "./process/signals.ts";
import { supervise } from "./supervisor.ts";

export async function runService(config: Config): Promise<void> {
  if (config.workers === 1) {
    const signals = installSignalHandlers("0"); // before the tables load
    signals.serving(await startServer(config));
  } else {
    await supervise(config);
  }
}

if (import.meta.main) {
  try {
    await runService(readConfig(process.env));
  } catch (error) {
    logError(error instanceof ConfigError ? "bad_configuration" : "start_failed", error);
    process.exit(1);
  }
}
