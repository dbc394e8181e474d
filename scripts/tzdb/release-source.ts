// Turns what an update is given (an IANA release tarball or a tzdata.zi, from a path or
// a URL) into the files data/tzdb/ holds. A tarball is built into tzdata.zi by IANA's own
// Makefile recipe, with backzone and PACKRATLIST=zone.tab: the same form as Debian's
// tzdata.zi ("# ddeps backzone zone.tab"), so an update never changes which names are
// Zones and which are Links behind our back.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZonetimeError } from "../../server/core/errors.ts";
import { sha256Hex } from "../write-atomically.ts";
import { parseTzSources } from "./parse.ts";
import { resolveTzSource } from "./resolve.ts";

export class ReleaseSourceError extends ZonetimeError {
  constructor(reason: string) {
    super("tz_release", 500, reason);
  }
}

/** The Makefile's TDATA (less `factory`) plus `backward`: the release's own zic input. */
const REGION_FILES = ["africa", "antarctica", "asia", "australasia", "europe", "northamerica", "southamerica", "etcetera", "backward"];

export const TAB_FILES = ["zone1970.tab", "zone.tab", "zonenow.tab", "iso3166.tab"];
const FETCH_TIMEOUT_MS = 60_000;

export interface Release {
  version: string;
  /** sha256 of the bytes we were given (the tarball or the tzdata.zi). */
  inputSha256: string;
  origin: string;
  kind: "tarball" | "tzdata.zi";
  tzdataZi: string;
  /** The release's .tab files (a bare tzdata.zi carries none). */
  tabFiles: Map<string, string>;
  /** The release's own NEWS entry (a tarball's NEWS, first entry); "" for a bare tzdata.zi. */
  news: string;
}

async function readInput(input: string): Promise<Uint8Array> {
  if (/^https?:\/\//i.test(input)) {
    let response: Response;
    try {
      response = await fetch(input, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: "follow" });
    } catch (error) {
      throw new ReleaseSourceError(`cannot download ${input}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new ReleaseSourceError(`cannot download ${input}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  const file = Bun.file(input);
  if (!(await file.exists())) throw new ReleaseSourceError(`${input}: no such file`);
  return new Uint8Array(await file.arrayBuffer());
}

function run(command: string[], cwd: string, what: string): void {
  const result = Bun.spawnSync(command, { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    const detail = (result.stderr.toString() || result.stdout.toString()).trim().split("\n").slice(-3).join(" / ");
    throw new ReleaseSourceError(`${what} failed: ${detail || `exit code ${result.exitCode}`}`);
  }
}

async function fromTarball(bytes: Uint8Array, origin: string): Promise<Omit<Release, "inputSha256" | "origin" | "kind">> {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-tzdb-"));
  try {
    await Bun.write(join(dir, "release.tar.gz"), bytes);
    run(["tar", "-xzf", "release.tar.gz"], dir, `unpacking ${origin}`);
    const present = new Set(readdirSync(dir));
    const missing = ["version", "Makefile", "ziguard.awk", "zishrink.awk", "backzone", "zone.tab", "northamerica"]
      .filter((f) => !present.has(f));
    if (missing.length > 0) {
      throw new ReleaseSourceError(`${origin} is not an IANA tzdata release tarball: it lacks ${missing.join(", ")}`);
    }
    const version = (await Bun.file(join(dir, "version")).text()).trim();
    if (!/^\d{4}[a-z]+$/.test(version)) throw new ReleaseSourceError(`${origin}: unexpected release version "${version}"`);
    // Check the region files as zic would read them, so an error names the release's own
    // file and line (tzdata.zi drops unused rules, and with them some mistakes).
    const regions = [];
    for (const name of REGION_FILES.filter((f) => present.has(f))) {
      regions.push({ name: `tzdata${version}.tar.gz:${name}`, text: await Bun.file(join(dir, name)).text() });
    }
    resolveTzSource(parseTzSources(regions));
    // `-o version`: the release already names itself; do not rebuild that file from code we lack.
    run(["make", "-o", "version", "tzdata.zi", "PACKRATDATA=backzone", "PACKRATLIST=zone.tab"], dir,
      `building tzdata.zi from ${origin} with IANA's Makefile`);
    const tabFiles = new Map<string, string>();
    for (const name of TAB_FILES) {
      if (present.has(name)) tabFiles.set(name, await Bun.file(join(dir, name)).text());
    }
    const news = present.has("NEWS") ? firstNewsEntry(await Bun.file(join(dir, "NEWS")).text(), version) : "";
    return { version, tzdataZi: await Bun.file(join(dir, "tzdata.zi")).text(), tabFiles, news };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function loadRelease(input: string): Promise<Release> {
  const bytes = await readInput(input);
  const inputSha256 = sha256Hex(bytes);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    return { ...(await fromTarball(bytes, input)), inputSha256, origin: input, kind: "tarball" };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ReleaseSourceError(`${input} is neither a gzip tarball nor a UTF-8 tzdata.zi`);
  }
  const version = /^#\s*version\s+(\S+)/m.exec(text)?.[1];
  if (!version) throw new ReleaseSourceError(`${input}: a tzdata.zi must name its release in a "# version" line`);
  return { version, tzdataZi: text, tabFiles: new Map(), news: "", inputSha256, origin: input, kind: "tzdata.zi" };
}

/** NEWS's entry for `version` ("Release 2026b - ..." up to the next "Release"), or "". */
function firstNewsEntry(news: string, version: string): string {
  const start = news.indexOf(`\nRelease ${version} - `);
  if (start < 0) return "";
  const end = news.indexOf("\nRelease ", start + 1);
  return news.slice(start + 1, end < 0 ? undefined : end).trimEnd();
}
