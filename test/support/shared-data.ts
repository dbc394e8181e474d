// Data the tests read where it lives, in ../shared beside the repository, and never copy
// in (the WorldTimeAPI capture, IANA's release tarballs). On a developer's machine without
// it the suites that need it are skipped with a message; in CI (CI=true) its absence is
// a failed test, because a run that silently skipped them proves nothing.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "bun:test";

export const SHARED_DIR = join(import.meta.dir, "..", "..", "..", "shared");

export const inCi = (env: Record<string, string | undefined> = process.env) => env.CI === "true";

/**
 * The path of `relative` under ../shared when it exists, else null. When it is absent
 * this registers, in the calling test file, a test that fails in CI; outside CI it warns
 * that `what` is skipped.
 */
export function sharedData(relative: string, what: string): string | null {
  const path = join(SHARED_DIR, relative);
  if (existsSync(path)) return path;
  const reason = `${path} is absent (it lives in ../shared, beside the repository)`;
  if (inCi()) {
    test(`${what}: needs ${relative} from ../shared`, () => {
      throw new Error(`${reason}; with CI=true ${what} must run, not be skipped`);
    });
  } else {
    console.warn(`${what} skipped: ${reason}`);
  }
  return null;
}
