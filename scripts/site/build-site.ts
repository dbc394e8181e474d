// The website, part of `bun run build`: publish what the site may read into
// generated/site-data, then build the Astro project in site/ (run by Bun: Astro 7 wants
// Node >= 22, which Bun's runtime stands in for) into site/dist or `outDir`.
//
// Astro empties its output folder first, so building in place under a running service
// pulled files from under it. The build goes to a new folder beside `outDir` and replaces
// it whole (two renames); the service keeps serving the site it holds in memory and takes
// the new one on SIGHUP.

import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SITE_DIR, ROOT } from "../paths.ts";
import { publishSiteData, SITE_DATA_DIR } from "./publish-site-data.ts";
import { precompressSite } from "./precompress.ts";
import { writeFavicon } from "./favicon.ts";

export async function buildSite(dataDir: string, outDir = DEFAULT_SITE_DIR): Promise<{ ms: number; outDir: string }> {
  const started = performance.now();
  await publishSiteData(dataDir);
  const staging = `${outDir}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  // process.execPath: the Bun running the build, not whatever `bun` PATH finds (or does not).
  const child = Bun.spawn([process.execPath, "--bun", join(ROOT, "node_modules", ".bin", "astro"), "build", "--silent"], {
    cwd: join(ROOT, "site"),
    env: {
      ...process.env,
      ASTRO_TELEMETRY_DISABLED: "1",
      ZONETIME_SITE_DATA: join(dataDir, SITE_DATA_DIR),
      ZONETIME_SITE_OUT: staging,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`the site did not build (astro exit ${code}): ${(stderr || stdout).trim().split("\n").slice(-5).join(" / ")}`);
  }
  writeFavicon(staging);
  precompressSite(staging);
  replaceFolder(staging, outDir);
  return { ms: Math.round(performance.now() - started), outDir };
}

/** Puts `next` where `target` is: the old folder is renamed away, the new one renamed in, then the old one removed. */
function replaceFolder(next: string, target: string): void {
  const previous = `${target}.previous-${process.pid}`;
  rmSync(previous, { recursive: true, force: true });
  let moved = false;
  try {
    renameSync(target, previous);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error; // the first build: nothing to replace
  }
  renameSync(next, target);
  if (moved) rmSync(previous, { recursive: true, force: true });
}
