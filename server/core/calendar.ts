// Proleptic Gregorian calendar arithmetic on whole days since 1970-01-01, in integers only.
// The tz compiler, the footer evaluator and the time object all count days this way, so
// nothing on the request path touches Date or Intl (both carry stale ICU rules).

export const SECONDS_PER_DAY = 86400;

/** Days from 1970-01-01 to year-month-day (month 1..12). Valid for any year (H. Hinnant). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Inverse of daysFromCivil. */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Day of week for a day count, Sunday = 0 (1970-01-01 was a Thursday). */
export function weekdayOfDays(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1]!;
}

/** The most days `month` (1..12) ever has: February's 29. */
export function longestMonth(month: number): number {
  return month === 2 ? 29 : MONTH_DAYS[month - 1]!;
}

/** 1-based day of the year. */
export function dayOfYear(date: CivilDate): number {
  return daysFromCivil(date.year, date.month, date.day) - daysFromCivil(date.year, 1, 1) + 1;
}

/** ISO 8601 week number (weeks start Monday; week 1 holds the year's first Thursday). */
export function isoWeekNumber(days: number): number {
  const isoWeekday = ((weekdayOfDays(days) + 6) % 7) + 1; // Monday = 1 .. Sunday = 7
  const thursday = days + 4 - isoWeekday;
  const thursdayYear = civilFromDays(thursday).year;
  return Math.floor((thursday - daysFromCivil(thursdayYear, 1, 1)) / 7) + 1;
}

/** The UTC calendar year that contains a unix time in seconds. */
export function yearOfUnixSeconds(seconds: number): number {
  return civilFromDays(Math.floor(seconds / SECONDS_PER_DAY)).year;
}
