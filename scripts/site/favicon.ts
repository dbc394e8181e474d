// /favicon.ico, made at build: browsers ask for it on every page and every JSON answer they
// display, whatever the page's <link rel=icon> says (a 404 each time before). It draws the
// same clock as site/public/favicon.svg (a ring and two hands, in the site's blue) into a
// 32x32 32-bit icon, anti-aliased by sampling each pixel 4x4 times.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

const SIZE = 32;
const BLUE = [0x0b, 0x62, 0xc4] as const; // #0b62c4, as in favicon.svg

/** Distance from point p to the segment a-b. */
function toSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Whether the point is on the drawing: favicon.svg's ring (r 14, stroke 3) and hands (M16 8v8l6 4, stroke 3). */
function inked(x: number, y: number): boolean {
  const half = 1.5;
  return Math.abs(Math.hypot(x - 16, y - 16) - 14) <= half || toSegment(x, y, 16, 8, 16, 16) <= half || toSegment(x, y, 16, 16, 22, 20) <= half;
}

/** The icon file's bytes: ICONDIR, one entry, a BITMAPINFOHEADER, BGRA pixels bottom-up, the (empty) AND mask. */
export function faviconIco(): Uint8Array {
  const pixels = SIZE * SIZE * 4, mask = SIZE * 4; // mask rows: 32 bits, already a multiple of 4 bytes
  const image = 40 + pixels + mask;
  const out = Buffer.alloc(6 + 16 + image);
  out.writeUInt16LE(0, 0); out.writeUInt16LE(1, 2); out.writeUInt16LE(1, 4);
  out.writeUInt8(SIZE, 6); out.writeUInt8(SIZE, 7); out.writeUInt16LE(1, 10); out.writeUInt16LE(32, 12);
  out.writeUInt32LE(image, 14); out.writeUInt32LE(22, 18);
  let at = 22;
  out.writeUInt32LE(40, at); out.writeInt32LE(SIZE, at + 4); out.writeInt32LE(SIZE * 2, at + 8);
  out.writeUInt16LE(1, at + 12); out.writeUInt16LE(32, at + 14); out.writeUInt32LE(pixels + mask, at + 20);
  at += 40;
  for (let row = SIZE - 1; row >= 0; row--) {
    for (let col = 0; col < SIZE; col++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inked(col + (sx + 0.5) / 4, row + (sy + 0.5) / 4)) hits++;
      out[at++] = BLUE[2]; out[at++] = BLUE[1]; out[at++] = BLUE[0]; out[at++] = Math.round((hits / 16) * 255);
    }
  }
  return out; // the AND mask stays zero: the alpha channel says what shows
}

export function writeFavicon(siteDir: string): void {
  writeFileSync(join(siteDir, "favicon.ico"), faviconIco());
}
