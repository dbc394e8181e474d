// The map's shading: a colour per UTC offset that tells neighbouring offsets apart. A smooth
// ramp (the first version) gave adjacent hours hues 9 degrees apart, so UTC-5/-4/-3 and
// UTC/+1/+2 looked alike; here each half hour turns the hue by 75 degrees (a whole hour by
// 150), and whole hours alternate light and lighter, so two zones an hour apart never share
// a look. Every colour is light enough for the map's dark labels (4.5:1, tested).

export const LEGEND_HOURS = Array.from({ length: 27 }, (_, i) => i - 12);

const HUE_PER_HALF_HOUR = 75;

export function offsetColor(seconds: number): string {
  const halfHours = Math.round(seconds / 1800);
  const hue = (((halfHours * HUE_PER_HALF_HOUR) % 360) + 360) % 360;
  const lightness = Math.abs(Math.round(seconds / 3600)) % 2 === 0 ? 80 : 72;
  return `hsl(${hue} 70% ${lightness}%)`;
}

export const hourLabel = (h: number) => (h === 0 ? "UTC" : `${h > 0 ? "+" : "−"}${Math.abs(h)}`);

/** "+5:30", "−3", "UTC": a map label for an offset in seconds. */
export function offsetLabel(seconds: number): string {
  if (seconds === 0) return "UTC";
  const a = Math.abs(seconds), h = Math.floor(a / 3600), m = Math.round((a % 3600) / 60);
  return `${seconds > 0 ? "+" : "−"}${h}${m ? `:${String(m).padStart(2, "0")}` : ""}`;
}
