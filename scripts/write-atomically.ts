// Writes a file so that a reader (a running server reloading on SIGHUP, a second build)
// sees either the old or the new content, never half of one; a write that fails (a full
// disk, a read-only folder) leaves no temporary file behind.

import { renameSync, rmSync, writeFileSync } from "node:fs";

export function writeAtomically(path: string, data: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}
