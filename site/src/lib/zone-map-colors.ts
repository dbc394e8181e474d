// The map's shading: a colour per UTC offset, from UTC-12 (blue) through UTC (green) to
// UTC+14 (red), shared by the legend (built into the page) and the drawing (in the browser).

export const LEGEND_HOURS = Array.from({ length: 27 }, (_, i) => i - 12);

export function offsetColor(seconds: number): string {
  const t = Math.max(0, Math.min(1, (seconds / 3600 + 12) / 26));
  // Hue 230 (blue) -> 0 (red), light enough for dark borders and text on it.
  return `hsl(${Math.round(230 - 230 * t)} 62% ${Math.round(72 - 10 * Math.sin(Math.PI * t))}%)`;
}

export const hourLabel = (h: number) => (h === 0 ? "UTC" : `${h > 0 ? "+" : "−"}${Math.abs(h)}`);
