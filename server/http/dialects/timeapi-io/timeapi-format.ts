// timeapi.io's wire formats. Legacy routes (ASP.NET + NodaTime): camelCase, local
// date-times in .NET round-trip style without an offset and with trailing zeros of the
// fraction trimmed, offsets as NodaTime Offset objects, durations as NodaTime Durations.
// v1 routes: snake_case, Python isoformat (six fraction digits, ±HH:MM).
// Errors: legacy answers the bare text `Invalid Timezone` (as timeapi.io does); v1 (UNVERIFIED
// on the wire) a FastAPI-style `{"detail": "..."}`.

import { civilFromDays, SECONDS_PER_DAY, weekdayOfDays } from "../../../core/calendar.ts";
import type { Instant } from "../../../core/clock.ts";
import { formatDateTime, formatOffset, pad2, pad4, pad6 } from "../../../core/time-format.ts";
import { HttpError } from "../../pipeline/http-errors.ts";
import type { Dialect } from "../../contract.ts";
import { WEEKDAYS } from "../lookups.ts";

export const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";

/** A client's mistake, in timeapi.io's words. */
export const timeapiError = (message: string, status = 400) => new HttpError("timeapi", status, message);
export const INVALID_TIMEZONE = () => timeapiError("Invalid Timezone");

/** The fraction of a second as .NET's round-trip format writes it: trailing zeros trimmed, nothing for zero. */
export function dotnetFraction(micros: number): string {
  if (micros === 0) return "";
  return `.${pad6(micros).replace(/0+$/, "")}`;
}

/** A local date-time without offset: `2025-04-12T00:55:31.390605`. */
export function dotnetLocal(localSeconds: number, micros: number): string {
  return formatDateTime(localSeconds) + dotnetFraction(micros);
}

/** NodaTime's Offset as JSON: seconds, milliseconds, ticks (100 ns), nanoseconds. */
export function offsetObject(seconds: number): string {
  return `{"seconds":${seconds},"milliseconds":${seconds * 1000},"ticks":${seconds * 10_000_000},"nanoseconds":${BigInt(seconds) * 1_000_000_000n}}`;
}

/** NodaTime's Duration of whole seconds as JSON, in its serializer's key order. */
export function durationObject(total: number): string {
  const days = Math.floor(total / SECONDS_PER_DAY);
  const ofDay = total - days * SECONDS_PER_DAY;
  const big = BigInt(total);
  return `{"days":${days},"nanosecondOfDay":${BigInt(ofDay) * 1_000_000_000n},"hours":${Math.floor(ofDay / 3600)},` +
    `"minutes":${Math.floor((ofDay % 3600) / 60)},"seconds":${ofDay % 60},"milliseconds":0,"subsecondTicks":0,` +
    `"subsecondNanoseconds":0,"bclCompatibleTicks":${big * 10_000_000n},"totalDays":${total / SECONDS_PER_DAY},` +
    `"totalHours":${total / 3600},"totalMinutes":${total / 60},"totalSeconds":${total},"totalMilliseconds":${total * 1000},` +
    `"totalTicks":${big * 10_000_000n},"totalNanoseconds":${big * 1_000_000_000n}}`;
}

/** An instant in UTC as NodaTime's Instant pattern writes it: `2025-03-30T01:00:00Z`. */
export const nodaInstant = (seconds: number) => `${formatDateTime(seconds)}Z`;

/** The fields of timeapi.io's current-time object (also conversionResult and calculationResult). */
export function currentTimeFields(localSeconds: number, micros: number): string {
  const days = Math.floor(localSeconds / SECONDS_PER_DAY);
  const ofDay = localSeconds - days * SECONDS_PER_DAY;
  const d = civilFromDays(days);
  const hour = Math.floor(ofDay / 3600);
  const minute = Math.floor((ofDay % 3600) / 60);
  return `"year":${d.year},"month":${d.month},"day":${d.day},"hour":${hour},"minute":${minute},"seconds":${ofDay % 60},` +
    `"milliSeconds":${Math.floor(micros / 1000)},"dateTime":"${dotnetLocal(localSeconds, micros)}",` +
    `"date":"${pad2(d.month)}/${pad2(d.day)}/${pad4(d.year)}","time":"${pad2(hour)}:${pad2(minute)}"`;
}

export const weekdayOfLocal = (localSeconds: number) => WEEKDAYS[weekdayOfDays(Math.floor(localSeconds / SECONDS_PER_DAY))]!;

/** v1's instant with an offset, Python isoformat: `2026-09-19T13:31:06.598390+00:00`. */
export function isoWithOffset(instant: Instant, utoff: number): string {
  return `${formatDateTime(instant.seconds + utoff)}.${pad6(instant.micros)}${formatOffset(utoff)}`;
}

export const LEGACY: Dialect = {
  name: "timeapi.io",
  error(context, error, extra) {
    // 405/429/413 keep their status; every other mistake is timeapi.io's 400 with text.
    return context.data.responses.dialect(error.message, TEXT_TYPE, error.status, context.head, { extra });
  },
};

export const V1: Dialect = {
  name: "timeapi.io v1",
  error(context, error, extra) {
    return context.data.responses.dialect(JSON.stringify({ detail: error.message }), JSON_TYPE, error.status, context.head, { extra });
  },
};
