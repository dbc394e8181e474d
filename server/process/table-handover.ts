// How a supervisor's sealed table set reaches its workers (see table-set.ts for why sealed).
// At spawn: the descriptors are inherited (stdio 4 onwards; 3 is the rate table) and named
// in ZONETIME_TABLES. After a SIGHUP: the supervisor reads and checks the new set itself,
// then tells each worker its descriptor numbers; the worker opens them as
// /proc/SUPERVISOR/fd/N (a memfd reopened so is the same memory file, still sealed) and
// checks them as at start. Where that is not possible (no /proc), the worker reads the set
// from DATA_DIR into its own sealed memory instead: still checked, only not shared.

import { closeSync, openSync } from "node:fs";
import type { SetDescriptors } from "./table-set.ts";

export const TABLES_VARIABLE = "ZONETIME_TABLES";
/** The first descriptor a worker inherits tables on (0-2 stdio, 3 the shared rate table). */
export const FIRST_TABLE_FD = 4;

export type HandoverMessage =
  /** supervisor -> worker: a new checked set, as the supervisor's own descriptor numbers; null: read DATA_DIR yourself. */
  | { type: "tables"; set: SetDescriptors | null; supervisor: number }
  /** worker -> supervisor: this worker got a SIGHUP; reload the instance. */
  | { type: "reload" };

/** What a worker is spawned with: its extra stdio entries (from fd 4) and the value of ZONETIME_TABLES. */
export function inheritance(set: SetDescriptors): { stdio: number[]; variable: string } {
  const names = Object.keys(set.fds);
  const fds = Object.fromEntries(names.map((name, i) => [name, FIRST_TABLE_FD + i]));
  return { stdio: names.map((name) => set.fds[name]!), variable: JSON.stringify({ generation: set.generation, fds }) };
}

/** The set a worker inherited (ZONETIME_TABLES), or null (none: it reads DATA_DIR itself). */
export function inherited(env: Record<string, string | undefined>): SetDescriptors | null {
  const value = env[TABLES_VARIABLE];
  if (!value) return null;
  const parsed = JSON.parse(value) as SetDescriptors;
  if (typeof parsed?.generation !== "string" || typeof parsed.fds !== "object") throw new Error(`${TABLES_VARIABLE} is not a table set: ${value}`);
  return parsed;
}

/** The supervisor's descriptors opened in this process (close them once mapped). Throws where /proc is unusable. */
export function openSupervisorSet(set: SetDescriptors, supervisor: number): SetDescriptors {
  const fds: Record<string, number> = {};
  try {
    for (const [name, fd] of Object.entries(set.fds)) fds[name] = openSync(`/proc/${supervisor}/fd/${fd}`, "r");
  } catch (error) {
    for (const fd of Object.values(fds)) closeSync(fd);
    throw error;
  }
  return { generation: set.generation, fds };
}
