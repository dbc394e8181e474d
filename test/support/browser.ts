// Debian's Chromium driven by playwright-core, as the tests use it: headless, no sandbox
// (root in CI), no background networking (the machine has no Internet).

import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}
