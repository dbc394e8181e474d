// The zonetime website: static pages (Astro's zero-JS default), small inline scripts
// only where a page is live. Built by `bun run build` into site/dist, served by the
// service itself. SITE_URL, when given, is the public address the snippets show before
// the page puts its own origin in (site/src/lib/origin.ts); there is no placeholder host.
import { defineConfig } from "astro/config";

export default defineConfig({
  site: process.env.SITE_URL || undefined,
  outDir: process.env.ZONETIME_SITE_OUT || "./dist",
  trailingSlash: "ignore",
  // Styles go to hashed files under /_astro/, cached for a year and shared by every page.
  build: { format: "directory", inlineStylesheets: "never" },
  devToolbar: { enabled: false },
  // Keep the source's whitespace: compression glues "the" and a following link on the next line.
  compressHTML: false,
});
