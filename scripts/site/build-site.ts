// The website, part of `bun run build`: publish what the site may read into
// generated/site-data, then build the Astro project in site/ (run by Bun: Astro 7 wants
// Node >= 22, which Bun's runtime stands in for) into site/dist or `outDir`.

import { join } from "node:path";
import { DEFAULT_SITE_DIR, ROOT } from "../paths.ts";
import { publishSiteData, SITE_DATA_DIR } from "./publish-site-data.ts";

export async function buildSite(dataDir: string, outDir = DEFAULT_SITE_DIR): Promise<{ ms: number; outDir: string }> {
  const started = performance.now();
  await publishSiteData(dataDir);
  // process.execPath: the Bun running the build, not whatever `bun` PATH finds (or does not).
  const child = Bun.spawn([process.execPath, "--bun", join(ROOT, "node_modules", ".bin", "astro"), "build", "--silent"], {
    cwd: join(ROOT, "site"),
    env: {
      ...process.env,
      ASTRO_TELEMETRY_DISABLED: "1",
      ZONETIME_SITE_DATA: join(dataDir, SITE_DATA_DIR),
      ZONETIME_SITE_OUT: outDir,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`the site did not build (astro exit ${code}): ${(stderr || stdout).trim().split("\n").slice(-5).join(" / ")}`);
  return { ms: Math.round(performance.now() - started), outDir };
}
