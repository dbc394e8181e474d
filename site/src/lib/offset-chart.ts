// The UTC offset of a zone over time as an SVG drawn at build: a step at every change,
// DST periods shaded, changes that skip wall-clock time (gaps) or repeat it (overlaps)
// marked. Each step carries its change (data-at, data-offset) for the tests.

import type { ZonePageData } from "./data";

const W = 900, H = 260, L = 56, R = 10, T = 10, B = 28;

export function offsetChart(d: ZonePageData): string {
  const offsets = [d.start[0], ...d.changes.map((c) => c[1])];
  const lo = Math.floor(Math.min(...offsets) / 3600) - 1, hi = Math.ceil(Math.max(...offsets) / 3600) + 1;
  const x = (t: number) => L + ((t - d.from) / (d.to - d.from)) * (W - L - R);
  const y = (s: number) => T + ((hi - s / 3600) / (hi - lo)) * (H - T - B);
  const parts: string[] = [];
  // Hour lines and their labels.
  for (let h = lo; h <= hi; h++) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(h * 3600).toFixed(1)}" y2="${y(h * 3600).toFixed(1)}" class="grid"/>`);
    parts.push(`<text x="${L - 6}" y="${(y(h * 3600) + 4).toFixed(1)}" text-anchor="end">${h === 0 ? "UTC" : (h > 0 ? "+" : "−") + Math.abs(h)}</text>`);
  }
  for (let year = 1970; Date.UTC(year, 0, 1) / 1000 < d.to; year += 10) {
    const t = Date.UTC(year, 0, 1) / 1000;
    parts.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${T}" y2="${H - B}" class="grid"/>`);
    parts.push(`<text x="${x(t).toFixed(1)}" y="${H - 8}" text-anchor="middle">${year}</text>`);
  }
  // DST periods shaded.
  let since = d.from, dst = d.start[1];
  for (const c of [...d.changes, null]) {
    const until = c ? c[0] : d.to;
    if (dst) parts.push(`<rect class="dst" x="${x(since).toFixed(2)}" width="${Math.max(0.5, x(until) - x(since)).toFixed(2)}" y="${T}" height="${H - T - B}"/>`);
    if (c) { since = c[0]; dst = c[2]; }
  }
  // The offset line: horizontal runs and a vertical step per change.
  let path = `M${x(d.from).toFixed(2)},${y(d.start[0]).toFixed(1)}`;
  for (const c of d.changes) path += `H${x(c[0]).toFixed(2)}V${y(c[1]).toFixed(1)}`;
  path += `H${x(d.to).toFixed(2)}`;
  parts.push(`<path class="offset" d="${path}"/>`);
  // One mark per change, coloured by what the wall clock does (the table below the chart
  // spells each one out).
  for (const c of d.changes) {
    const kind = c[4] === 1 ? "gap" : c[4] === -1 ? "overlap" : "none";
    parts.push(`<circle class="step ${kind}" cx="${x(c[0]).toFixed(1)}" cy="${y(c[1]).toFixed(1)}" r="1.6" data-at="${c[0]}" data-offset="${c[1]}"/>`);
  }
  return `<svg viewBox="0 0 ${W} ${H}" class="offset-chart" role="img" aria-labelledby="chart-title chart-desc">` +
    `<title id="chart-title">UTC offset of ${d.zone}, 1970 to ${new Date(d.to * 1000).getUTCFullYear()}</title>` +
    `<desc id="chart-desc">${d.changes.length} changes; shaded: daylight saving time. The table below lists them.</desc>${parts.join("")}</svg>`;
}

export function fmt(s: number): string {
  const a = Math.abs(s);
  const hms = `${String(Math.floor(a / 3600)).padStart(2, "0")}:${String(Math.floor((a % 3600) / 60)).padStart(2, "0")}${a % 60 ? ":" + String(a % 60).padStart(2, "0") : ""}`;
  return `UTC${s < 0 ? "-" : "+"}${hms}`;
}
