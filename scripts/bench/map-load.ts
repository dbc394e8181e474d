// The home page's zone map under a mid-range phone profile in Debian's Chromium: network
// throttled by CDP (Network.emulateNetworkConditions: 150 ms latency, 1.6 Mbit/s down,
// 750 kbit/s up, Lighthouse's "slow 4G") and the CPU slowed 4x (Emulation.setCPUThrottlingRate).
// Reports the bytes the map transfers (its code and data) and the time from navigation to
// the map being drawn and clickable (#zone-map[data-state=ready]). Needs a built site
// (site/dist). Run alone: `bun scripts/bench/map-load.ts`.

import { existsSync } from "node:fs";
import { startService } from "./bench-process.ts";
import { join } from "node:path";
import { DEFAULT_DATA_DIR, DEFAULT_SITE_DIR } from "../paths.ts";
import { launchBrowser } from "../../test/support/browser.ts";

const MAP = /\/zone-map\.json$|\/zone-offsets\.json$|\/_astro\/zone-map-draw\.[^/]+\.js$/;

export async function benchMapLoad(dataDir = DEFAULT_DATA_DIR, siteDir = DEFAULT_SITE_DIR, runs = 3): Promise<void> {
  if (!existsSync(join(siteDir, "index.html"))) {
    console.log("map load: no built site (bun run build); skipped");
    return;
  }
  const { child, url: base } = await startService({ DATA_DIR: dataDir, SITE_DIR: siteDir, RATE_LIMIT: "off" });
  const browser = await launchBrowser();
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      const urls = new Map<string, string>();
      let mapBytes = 0, allBytes = 0;
      cdp.on("Network.responseReceived", (e: any) => urls.set(e.requestId, e.response.url));
      cdp.on("Network.loadingFinished", (e: any) => {
        allBytes += e.encodedDataLength;
        if (MAP.test(urls.get(e.requestId) ?? "")) mapBytes += e.encodedDataLength;
      });
      const started = performance.now();
      await page.goto(`${base}/`, { waitUntil: "commit" });
      await page.waitForSelector("#zone-map[data-state=ready]", { timeout: 120_000 });
      const ready = performance.now() - started;
      const firstPaint = await page.evaluate(() => (globalThis as any).performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0);
      console.log(`map load (slow 4G, CPU 4x), run ${run + 1}: first contentful paint ${Math.round(firstPaint)} ms, map interactive ${Math.round(ready)} ms after navigation; map ${mapBytes} bytes of ${allBytes} transferred`);
      await context.close();
    }
  } finally {
    await browser.close();
    child.kill();
    await child.exited;
  }
}

if (import.meta.main) await benchMapLoad(process.env.DATA_DIR || DEFAULT_DATA_DIR);
