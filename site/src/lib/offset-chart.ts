// The UTC offset of a zone over time as an SVG drawn at build: a step at every change,
// DST periods shaded, changes that skip wall-clock time (gaps) or repeat it (overlaps)
// marked, a "now" line (moved to the reader's now by the page's script), and a label at
// every offset the line takes that is not a whole hour (+5:30, +5:45).
//
// Two sizes: the recent window (a few years either side of now, drawn to fit a phone's
// width so that now is on screen without scrolling) and the full history since 1970
// (wider; it scrolls). Only the full history's marks carry their change (data-at,
// data-offset), so the tests read each change once.

import type { ZonePageData } from "./data";

interface Frame { W: number; H: number; L: number; R: number; T: number; B: number; yearStep: number; marks: boolean }
/** Sized in the SVG's own units so that, scaled to a 358 px phone column, its 12-unit text is about 11 px.
 *  R holds the widest off-hour label, Chatham's "+12:45" in bold (40 cut Kolkata's "+5:30" at 390 px). */
export const RECENT: Frame = { W: 400, H: 230, L: 44, R: 56, T: 12, B: 26, yearStep: 1, marks: false };
export const FULL: Frame = { W: 900, H: 260, L: 56, R: 56, T: 10, B: 28, yearStep: 10, marks: true };

/** The recent window: the first of January five years before `now`'s year to the first of January three years after (two years ahead at least). */
export function recentWindow(now: number): { from: number; to: number } {
  const year = new Date(now * 1000).getUTCFullYear();
  return { from: Date.UTC(year - 5, 0, 1) / 1000, to: Date.UTC(year + 3, 0, 1) / 1000 };
}

/** "+5:30", "−4", "UTC": an offset as the axis writes it. */
export function axisLabel(seconds: number): string {
  if (seconds === 0) return "UTC";
  const a = Math.abs(seconds), h = Math.floor(a / 3600), m = Math.floor((a % 3600) / 60);
  return `${seconds > 0 ? "+" : "−"}${h}${m ? `:${String(m).padStart(2, "0")}` : ""}`;
}

export function offsetChart(d: ZonePageData, window: { from: number; to: number }, f: Frame, now: number, id: string): string {
  const { W, H, L, R, T, B } = f;
  const { from, to } = window;
  // The state at the window's start, and the changes inside it.
  const before = d.changes.filter((c) => c[0] <= from);
  const last = before[before.length - 1];
  const start = last ? { utoff: last[1], dst: last[2] } : { utoff: d.start[0], dst: d.start[1] };
  const changes = d.changes.filter((c) => c[0] > from && c[0] < to);
  const offsets = [start.utoff, ...changes.map((c) => c[1])];
  const lo = Math.floor(Math.min(...offsets) / 3600) - 1, hi = Math.ceil(Math.max(...offsets) / 3600) + 1;
  const x = (t: number) => L + ((t - from) / (to - from)) * (W - L - R);
  const y = (s: number) => T + ((hi - s / 3600) / (hi - lo)) * (H - T - B);
  const parts: string[] = [];
  // Hour lines and their labels; every offset off the hour gets its own label, at the right.
  for (let h = lo; h <= hi; h++) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(h * 3600).toFixed(1)}" y2="${y(h * 3600).toFixed(1)}" class="grid"/>`);
    parts.push(`<text x="${L - 6}" y="${(y(h * 3600) + 4).toFixed(1)}" text-anchor="end">${axisLabel(h * 3600)}</text>`);
  }
  for (const s of new Set(offsets)) {
    if (s % 3600 !== 0) parts.push(`<text class="off-hour" x="${W - R + 4}" y="${(y(s) + 4).toFixed(1)}">${axisLabel(s)}</text>`);
  }
  for (let year = new Date(from * 1000).getUTCFullYear(); Date.UTC(year, 0, 1) / 1000 < to; year += f.yearStep) {
    const t = Date.UTC(year, 0, 1) / 1000;
    parts.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${T}" y2="${H - B}" class="grid"/>`);
    // Recent: the year's label in the middle of its year.
    const labelAt = f.yearStep === 1 ? Math.min(x(Date.UTC(year, 6, 1) / 1000), W - R - 14) : x(t);
    parts.push(`<text x="${labelAt.toFixed(1)}" y="${H - 8}" text-anchor="middle">${f.yearStep === 1 ? `’${String(year).slice(2)}` : year}</text>`);
  }
  // DST periods shaded.
  let since = from, dst = start.dst;
  for (const c of [...changes, null]) {
    const until = c ? c[0] : to;
    if (dst) parts.push(`<rect class="dst" x="${x(since).toFixed(2)}" width="${Math.max(0.5, x(until) - x(since)).toFixed(2)}" y="${T}" height="${H - T - B}"/>`);
    if (c) { since = c[0]; dst = c[2]; }
  }
  // The offset line: horizontal runs and a vertical step per change.
  let path = `M${x(from).toFixed(2)},${y(start.utoff).toFixed(1)}`;
  for (const c of changes) path += `H${x(c[0]).toFixed(2)}V${y(c[1]).toFixed(1)}`;
  path += `H${x(to).toFixed(2)}`;
  parts.push(`<path class="offset" d="${path}"/>`);
  for (const c of changes) {
    const kind = c[4] === 1 ? "gap" : c[4] === -1 ? "overlap" : "none";
    const data = f.marks ? ` data-at="${c[0]}" data-offset="${c[1]}"` : "";
    parts.push(`<circle class="step ${kind}" cx="${x(c[0]).toFixed(1)}" cy="${y(c[1]).toFixed(1)}" r="${f.marks ? 1.6 : 2.4}"${data}/>`);
  }
  // Now, as of the build; the page's script moves it to the reader's now (data-from/to/x0/x1 map time to x).
  const nowX = x(Math.min(Math.max(now, from), to)).toFixed(1);
  parts.push(`<g class="now" data-from="${from}" data-to="${to}" data-x0="${L}" data-x1="${W - R}" transform="translate(${nowX} 0)">` +
    `<line x1="0" x2="0" y1="${T}" y2="${H - B}"/><text x="3" y="${T + 10}">now</text></g>`);
  const fromYear = new Date(from * 1000).getUTCFullYear(), toYear = new Date(to * 1000).getUTCFullYear();
  return `<svg viewBox="0 0 ${W} ${H}" class="offset-chart" role="img" aria-labelledby="${id}-title ${id}-desc">` +
    `<title id="${id}-title">UTC offset of ${d.zone}, ${fromYear} to ${toYear}</title>` +
    `<desc id="${id}-desc">${changes.length} changes in this window; shaded: daylight saving time; the line marked now is the present.</desc>${parts.join("")}</svg>`;
}

export function fmt(s: number): string {
  const a = Math.abs(s);
  const hms = `${String(Math.floor(a / 3600)).padStart(2, "0")}:${String(Math.floor((a % 3600) / 60)).padStart(2, "0")}${a % 60 ? ":" + String(a % 60).padStart(2, "0") : ""}`;
  return `UTC${s < 0 ? "-" : "+"}${hms}`;
}
