// A clock change in the words of the people who live with it: the local wall clock
// before and after ("Sun 28 Mar 2027, 01:00 → 02:00"), not the UTC instant alone.

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** "Sun 28 Mar 2027" and "01:00" of unix time `t` read on a clock `offset` seconds from UTC. */
function wall(t: number, offset: number): { date: string; time: string } {
  const d = new Date((t + offset) * 1000);
  return {
    date: `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
    time: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`,
  };
}

/** "1 hour", "30 minutes", "1 hour 30 minutes". */
function amount(seconds: number): string {
  const h = Math.floor(seconds / 3600), m = Math.round((seconds % 3600) / 60);
  return [h ? `${h} hour${h === 1 ? "" : "s"}` : "", m ? `${m} minute${m === 1 ? "" : "s"}` : ""].filter(Boolean).join(" ") || "0 minutes";
}

/**
 * The change at unix time `at` from offset `before` to `after`, as local wall-clock time:
 * "Sun 28 Mar 2027, 01:00 → 02:00 (clocks go forward 1 hour)". A change of abbreviation
 * or DST flag alone, with the same offset, says so.
 */
export function describeWallClockChange(at: number, before: number, after: number): string {
  const from = wall(at, before), to = wall(at, after);
  const clock = from.date === to.date ? `${from.date}, ${from.time} → ${to.time}` : `${from.date} ${from.time} → ${to.date} ${to.time}`;
  if (after === before) return `${from.date}, ${from.time} (the clock does not move)`;
  return `${clock} (clocks go ${after > before ? "forward" : "back"} ${amount(Math.abs(after - before))})`;
}

/** "+05:45" -> 20700, "-03:30" -> -12600 (an API offset, in seconds). */
export function offsetSeconds(offset: string): number {
  const [h, m = 0, sec = 0] = offset.slice(1).split(":").map(Number);
  return (offset[0] === "-" ? -1 : 1) * (h! * 3600 + m * 60 + sec);
}

/** A Timezones row's next change: "Sun 28 Mar 2027, 01:00 → 02:00 (clocks go forward 1 hour), then UTC+01:00 BST (DST)". */
export function describeNextChange(c: { unixtime: number; utc_offset: string; abbreviation: string; dst: boolean; utc_offset_before: string }): string {
  return `${describeWallClockChange(c.unixtime, offsetSeconds(c.utc_offset_before), offsetSeconds(c.utc_offset))}, then UTC${c.utc_offset} ${c.abbreviation}${c.dst ? " (DST)" : ""}`;
}
