// Part of the site build: a Brotli (.br) and a gzip (.gz) copy beside every text file of
// the built site worth compressing, so that the service answers a browser that accepts
// them with the smaller bytes without compressing anything per request
// (server/http/bun/site-encoding.ts picks one). /timezones/ went out as 385 KB and the zone map
// as 344 KB to browsers asking for br.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The kinds of file that compress (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|txt|xml|webmanifest|ico)$/;
/** Below this a compressed copy saves less than the packet it would ride in. */
export const MIN_BYTES = 1024;

export interface PrecompressResult { files: number; bytes: number; br: number; gzip: number }

/** Writes `name.br` and `name.gz` beside each compressible file of `dir` over MIN_BYTES, where smaller. */
export function precompressSite(dir: string): PrecompressResult {
  const result: PrecompressResult = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) compressOne(full, result);
    }
  };
  walk(dir);
  return result;
}

/**
 * Brotli's best (11) for the few big files people load most (/timezones/, the zone map,
 * the API reference, home), 9 for the 600 small pages: measured over the whole site, 11
 * everywhere took 24 s for 2.24 MB, 10 took 10.6 s for 2.32 MB, 9 took 0.5 s for 2.58 MB.
 */
const brotliQuality = (bytes: number) => (bytes >= 48 * 1024 ? 11 : 9);

function compressOne(path: string, result: PrecompressResult): void {
  const body = readFileSync(path);
  if (body.length < MIN_BYTES) return;
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.length), [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  const gz = gzipSync(body, { level: 9 });
  result.files++;
  result.bytes += body.length;
  if (br.length < body.length) {
    writeFileSync(`${path}.br`, br);
    result.br += br.length;
  }
  if (gz.length < body.length) {
    writeFileSync(`${path}.gz`, gz);
    result.gzip += gz.length;
  }
}
