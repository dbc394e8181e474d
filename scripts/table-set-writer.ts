// How `bun run build` replaces the data folder's tables: a complete new set is written into
// a folder of its own, sets/ID, beside the one serving; the switch is one rename, of
// manifest.json, which names the set (server/formats/manifest.ts, `set`) and is what every
// reader reads first (server/process/table-set.ts). So a reader sees the old set or the
// new one, never a mix, and a build that fails (a full disk, a read-only folder, an error,
// kill -9) leaves the serving set and its manifest untouched: on an error the new folder is
// removed at once; after a crash it is removed by the next build. The set's own
// manifest.json sits in its folder too, so sets/ID alone is a complete data folder.
//
// After the switch, and not part of it: the top-level zones.bin, ip4.bin... are refreshed as
// hard links to the new set's files (no extra space), for whatever reads a table by its
// plain name (scripts, benchmarks, tests), and every other set is removed. The space needed
// is the old set plus the new one while building, one set after.

import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_FILE, type Manifest } from "../server/formats/manifest.ts";
import { writeAtomically } from "./write-atomically.ts";

export const SETS_FOLDER = "sets";

/** The folder holding the tables `manifest` describes, in `dataDir`. */
export function setFolderOf(dataDir: string, manifest: Manifest | null): string {
  return manifest?.set === undefined ? dataDir : join(dataDir, manifest.set);
}

export interface SetBuild {
  /** The new set's folder: every table of the build goes here. */
  dir: string;
  /** Takes `name` unchanged from the serving set (a hard link, else a copy). */
  keep(name: string): void;
  /** Writes the manifest into the set, then switches the data folder to it (one rename). Then tidies up. */
  commit(manifest: Manifest, tables: readonly string[]): void;
  /** Removes the new set (the build failed): the data folder is as it was. */
  abandon(): void;
}

export function beginSet(dataDir: string, previous: Manifest | null, builtAt: string): SetBuild {
  mkdirSync(dataDir, { recursive: true });
  const sets = join(dataDir, SETS_FOLDER);
  // Leftovers of builds that crashed: never the serving set.
  for (const name of existsSync(sets) ? readdirSync(sets) : []) {
    if (`${SETS_FOLDER}/${name}` !== previous?.set) rmSync(join(sets, name), { recursive: true, force: true });
  }
  const id = `${builtAt.replace(/[-:.]/g, "")}-${process.pid}`;
  const relative = `${SETS_FOLDER}/${id}`;
  const dir = join(dataDir, relative);
  mkdirSync(dir, { recursive: true });
  const serving = setFolderOf(dataDir, previous);
  return {
    dir,
    keep(name) {
      try {
        linkSync(join(serving, name), join(dir, name));
      } catch {
        copyFileSync(join(serving, name), join(dir, name));
      }
    },
    commit(manifest, tables) {
      writeAtomically(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
      // The switch.
      writeAtomically(join(dataDir, MANIFEST_FILE), JSON.stringify({ ...manifest, set: relative }, null, 2) + "\n");
      for (const name of tables) {
        const temporary = join(dataDir, `${name}.${process.pid}.tmp`);
        try {
          // Already this file (a table kept from the last set): rename(2) of two links to one file does nothing.
          if (existsSync(join(dataDir, name)) && statSync(join(dataDir, name)).ino === statSync(join(dir, name)).ino) continue;
          rmSync(temporary, { force: true });
          linkSync(join(dir, name), temporary);
          renameSync(temporary, join(dataDir, name));
          rmSync(temporary, { force: true });
        } catch (error) {
          rmSync(temporary, { force: true });
          console.warn(`build: ${join(dataDir, name)} was not refreshed (${(error as Error).message}); the service reads ${join(dir, name)}`);
        }
      }
      for (const name of readdirSync(sets)) if (name !== id) rmSync(join(sets, name), { recursive: true, force: true });
    },
    abandon() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
