// Formatting of instants and offsets by integer arithmetic: no Date, no Intl, no regex.

import { civilFromDays, daysFromCivil, SECONDS_PER_DAY } from "./calendar.ts";

/** The first and last whole seconds whose date RFC 3339 can write: years 0001-9999, four digits. */
export const FIRST_RFC3339_SECOND = daysFromCivil(1, 1, 1) * SECONDS_PER_DAY;
export const LAST_RFC3339_SECOND = daysFromCivil(10000, 1, 1) * SECONDS_PER_DAY - 1;

/** True when `seconds` (UTC or already shifted to local) falls in years 0001-9999. */
export function inRfc3339Years(seconds: number): boolean {
  return seconds >= FIRST_RFC3339_SECOND && seconds <= LAST_RFC3339_SECOND;
}

const TWO = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));

export function pad2(n: number): string {
  return TWO[n]!;
}

export function pad4(n: number): string {
  return n < 1000 ? String(n).padStart(4, "0") : String(n);
}

export function pad6(n: number): string {
  return n >= 100000 ? String(n) : String(n).padStart(6, "0");
}

/**
 * The one offset formatter. `separator` ":" gives RFC 3339's `+hh:mm` (`+hh:mm:ss` where the
 * offset has seconds, LMT); "" with `shortest` gives zic's `%z` abbreviation: `+hh`,
 * `+hhmm` or `+hhmmss`, the shortest form that loses nothing (`+0545`, `-03`).
 */
export function formatOffset(utoff: number, separator = ":", shortest = false): string {
  const sign = utoff < 0 ? "-" : "+";
  const a = Math.abs(utoff);
  const h = Math.floor(a / 3600);
  const m = Math.floor((a % 3600) / 60);
  const s = a % 60;
  if (shortest && m === 0 && s === 0) return `${sign}${pad2(h)}`;
  return `${sign}${pad2(h)}${separator}${pad2(m)}${s === 0 ? "" : `${separator}${pad2(s)}`}`;
}

/** `YYYY-MM-DDThh:mm:ss` of whole unix-like seconds (already shifted to local if wanted). */
export function formatDateTime(seconds: number): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const secs = seconds - days * SECONDS_PER_DAY;
  const d = civilFromDays(days);
  return `${pad4(d.year)}-${pad2(d.month)}-${pad2(d.day)}T${pad2(Math.floor(secs / 3600))}:${pad2(Math.floor((secs % 3600) / 60))}:${pad2(secs % 60)}`;
}
