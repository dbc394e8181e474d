// IANA's tz repository as the tests read it (../shared/mirrors/eggert+tz): a file as a
// release's tree held it, and the rows of its tab-separated tables (zone.tab, iso3166.tab).

import { mirrorGitDir } from "./third-party.ts";

/** A file of IANA's repository at `rev` (a tag or a commit); null where that tree lacks it. */
export function ianaRepoFile(rev: string, file: string): string | null {
  const run = Bun.spawnSync(["git", "--git-dir", mirrorGitDir("eggert/tz"), "show", `${rev}:${file}`], { stderr: "pipe" });
  return run.exitCode === 0 ? run.stdout.toString() : null;
}

/** A .tab file's rows: its lines but blank ones and comments, split at tabs. */
export const tabRows = (text: string | null) => (text ?? "").split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((l) => l.split("\t"));
