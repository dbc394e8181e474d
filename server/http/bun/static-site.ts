// The built website (site/dist), served by the service at /. The whole site is read into
// memory at start and on SIGHUP; a request is answered only from
// memory, so no request path ever reaches the filesystem, and a rebuild of the folder
// under a running service changes nothing until the next SIGHUP takes the new site whole
// (answering from the folder gave 500s mid-build, and pages whose assets were gone after).
// Hashed assets (/_astro/...) are immutable for a year; pages revalidate after five
// minutes. An unknown site path gets the site's own 404 page. The build's .br and .gz
// copies of a file are held with it, not served at paths of their own (site-encoding.ts).
//
// A file with a gzip copy is held only compressed: its bytes as they are are decoded from
// that copy for the few clients that take neither coding (every browser takes one). The
// site is 17 MB as it is and 7 MB in its two copies; holding all three cost every worker
// 25 MB of RSS, holding the copies alone 12 MB (`bun /tmp/rss.ts`, issue 31).

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { SiteEncoding } from "./site-encoding.ts";
import { SITE_ASSET, SITE_FILE, SITE_PAGE } from "../caching/cache-policy.ts";

export class StaticFile {
  /** The build's compressed copies of `body`, each an object of its own (responses.ts keeps headers per object). */
  readonly encoded: Partial<Record<SiteEncoding, { body: Uint8Array }>> = {};

  constructor(readonly type: string, readonly cacheControl: string, private whole: Uint8Array | null) {}

  /** The file as it is: held, or decoded from its gzip copy (about 0.1 ms for a 40 KB page). */
  get body(): Uint8Array {
    return this.whole ?? gunzipSync(this.encoded.gzip!.body);
  }

  /** Once its copies are checked: a file with a gzip copy lets go of its bytes as they are. */
  holdCompressedOnly(): void {
    if (this.encoded.gzip !== undefined) this.whole = null;
  }
}

const ENCODED_SUFFIX: Record<string, SiteEncoding> = { ".br": "br", ".gz": "gzip" };

/**
 * The load makes garbage (each file read, then decoded from its copies) faster than the
 * collector looks in a worker whose heap is already 60 MB: a collection every this many
 * bytes of it (a few at start, and at a SIGHUP's reload) keeps the peak near the site's size.
 */
const GARBAGE_PER_COLLECTION = 16 * 2 ** 20;

/** A folder bigger than this is not a website we built (SITE_DIR pointing somewhere else): refused, not read. */
export const MAX_SITE_BYTES = 64 * 2 ** 20;

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  webmanifest: "application/manifest+json",
};


/** For HTML: what the pages may load (scripts and styles are Astro's inlined ones). */
export const PAGE_SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

export class StaticSite {
  private readonly files = new Map<string, StaticFile>();
  readonly notFound: StaticFile | null;
  /** The bytes held in memory. */
  totalBytes = 0;

  private constructor(dir: string) {
    const found: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const full = join(folder, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.isFile()) found.push(full);
      }
    };
    walk(dir);
    const all = new Set(found);
    const isCopy = (full: string) => full.slice(-3) in ENCODED_SUFFIX && all.has(full.slice(0, -3));
    // One file at a time, with its copies, so its bytes as they are are let go before the next
    // is read. Reading the whole site, then every copy, raised a loaded worker's RSS by 96 MB;
    // this, with the collections, raises its peak by 35 MB (worker peak 370 -> 180 MB in all).
    let sinceCollected = 0;
    for (const full of found) {
      if (isCopy(full)) continue;
      const file = this.add(dir, full);
      for (const suffix of Object.keys(ENCODED_SUFFIX)) if (all.has(full + suffix)) this.addCopy(dir, full + suffix, file);
      sinceCollected += file.body.length * 3; // read, and decoded from each copy
      file.holdCompressedOnly();
      if (sinceCollected > GARBAGE_PER_COLLECTION) {
        Bun.gc(true);
        sinceCollected = 0;
      }
    }
    this.notFound = this.files.get("/404.html") ?? null;
  }

  /**
   * The site in `dir`, read whole, or null when it has not been built (the API still
   * serves). Throws when a file cannot be read or the folder is too big to be ours.
   */
  static load(dir: string): StaticSite | null {
    try {
      if (!statSync(join(dir, "index.html")).isFile()) return null;
    } catch {
      return null;
    }
    return new StaticSite(dir);
  }

  private add(root: string, full: string): StaticFile {
    const url = `/${relative(root, full).split(sep).join("/")}`;
    const extension = url.slice(url.lastIndexOf(".") + 1).toLowerCase();
    this.totalBytes += statSync(full).size;
    if (this.totalBytes > MAX_SITE_BYTES) throw new Error(`${root}: over ${MAX_SITE_BYTES} bytes, which is not the website the build makes`);
    const file = new StaticFile(
      TYPES[extension] ?? "application/octet-stream",
      url.startsWith("/_astro/") ? SITE_ASSET : extension === "html" ? SITE_PAGE : SITE_FILE,
      readFileSync(full),
    );
    this.files.set(url, file);
    if (url.endsWith("/index.html")) {
      const folder = url.slice(0, -"index.html".length); // "/docs/"
      this.files.set(folder, file);
      if (folder !== "/") this.files.set(folder.slice(0, -1), file); // "/docs"
    }
    return file;
  }

  /**
   * A .br or .gz copy the build wrote beside a file: held with that file, but only when it
   * decodes to that file's bytes. A file edited after the build (a deploy step rewriting
   * asset names) would otherwise go out stale to every browser that takes br or gzip.
   */
  private addCopy(root: string, full: string, file: StaticFile): void {
    this.totalBytes += statSync(full).size;
    if (this.totalBytes > MAX_SITE_BYTES) throw new Error(`${root}: over ${MAX_SITE_BYTES} bytes, which is not the website the build makes`);
    const coding = ENCODED_SUFFIX[full.slice(-3)]!;
    const body = readFileSync(full);
    let decoded: Uint8Array | null = null;
    try {
      decoded = coding === "br" ? brotliDecompressSync(body) : gunzipSync(body);
    } catch {
      // not a copy of anything: left out
    }
    // Compared in place (Buffer.from would copy both sides).
    if (decoded !== null && Buffer.compare(decoded, file.body) === 0) file.encoded[coding] = { body };
  }

  lookup(rawPath: string): StaticFile | undefined {
    return this.files.get(rawPath);
  }

  /** Every path a file is served at. */
  paths(): IterableIterator<string> {
    return this.files.keys();
  }

  get size(): number {
    return this.files.size;
  }
}
