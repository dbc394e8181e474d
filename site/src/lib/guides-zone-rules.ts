// The guides about a zone's rules rather than its present: the changes ahead
// (/timezone/{name}/transitions) and a microcontroller's clock (/timezone/{name}/device).

import type { Guide } from "./guide";
import { ARDUINO_SKETCH, CIRCUITPYTHON_BOARD, CIRCUITPYTHON_TZ } from "./guides-device-code";

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const zoneRuleGuides: Guide[] = [
  {
    slug: "dst-changes-ahead",
    title: "DST changes ahead",
    summary: "Every clock change in a window, before it happens.",
    html: `<p><code>GET /timezone/{name}/transitions?from=&amp;to=</code> lists every instant in <code>[from, to)</code> where the
zone's UTC offset, abbreviation or DST flag changes. <code>from</code> and <code>to</code> take the <code>at</code> syntax (unix
seconds or an RFC 3339 instant); without them the window is one year from now. Any window inside years 0001-9999 works:
past the data's last explicit rule the answer comes from the rules that repeat forever, exactly as <code>zic</code> compiles them.</p>
<pre data-run="shell"><code>curl -s '/timezone/America/New_York/transitions?from=2027-01-01T00:00:00Z&amp;to=2028-01-01T00:00:00Z'</code></pre>
<pre data-run="answer"><code>{"timezone":"America/New_York","from":"2027-01-01T00:00:00Z","to":"2028-01-01T00:00:00Z",
 "transitions":[
  {"unixtime":1805007600,"at":"2027-03-14T07:00:00Z","utc_offset":"-04:00","abbreviation":"EDT","dst":true,
   "dst_offset":3600,"raw_offset":-18000,"utc_offset_before":"-05:00","abbreviation_before":"EST","dst_before":false,
   "local_before":"2027-03-14T02:00:00","local_at":"2027-03-14T03:00:00","local_change":"gap"},
  {"unixtime":1825567200,"at":"2027-11-07T06:00:00Z","utc_offset":"-05:00","abbreviation":"EST","dst":false,
   "dst_offset":0,"raw_offset":-18000,"utc_offset_before":"-04:00","abbreviation_before":"EDT","dst_before":true,
   "local_before":"2027-11-07T02:00:00","local_at":"2027-11-07T01:00:00","local_change":"overlap"}],
 "next_from":null}</code></pre>
<p>Each entry is the state from that instant on (the fields a time object uses), the state before it, and what a wall
clock does: <code>local_before</code> is the reading the change happens at, <code>local_at</code> the reading right after.
<code>gap</code>: the local times in between never occur (a meeting at 02:30 that day does not exist);
<code>overlap</code>: they occur twice; <code>none</code>: only the abbreviation or the DST flag changed.</p>
<p>One answer lists at most 1000 changes. When there are more, <code>next_from</code> is the instant of the first one left
out: ask again with <code>from</code> set to it. Answers for a fixed window never change until the tz database does, so
they are cacheable (<code>ETag</code>, <code>If-None-Match</code> answers 304). For just the next change, read
<code>next_transition</code> from <code>/timezone/{name}/info</code>.</p>
<p>To place a local time that falls in a gap or an overlap, use <code>/convert</code> with a
<code>disambiguation</code> (<code>compatible</code>, <code>earlier</code>, <code>later</code> or <code>reject</code>, as in
JavaScript's Temporal).</p>`,
  },
  {
    slug: "esp32-clock",
    title: "Set an ESP32/Arduino clock",
    summary: "A TZ string right from today on the device's own C library, and when to ask again.",
    html: `<p>A microcontroller does not need to ask for the time every hour: NTP keeps UTC, and the C library turns it into
local time from a POSIX TZ string (<code>EST5EDT,M3.2.0,M11.1.0</code> for New York). <code>GET /timezone/{name}/device</code>
answers a string that is right from now on glibc, musl and ESP-IDF's newlib alike, how long it stays right, and when to
ask again:</p>
<pre data-run="shell"><code>curl -s '/timezone/America/Havana/device.txt?at=2026-11-23T00:00:00Z'
timezone: America/Havana
posix_tz: CST5CDT,J326/19,J311/1
valid_until: 2027-11-23T00:00:00Z
refresh_after: 2027-11-22T00:00:00Z</code></pre>
<p>Why not <code>posix_tz</code> from <code>/info</code>? That is the string <code>zic</code> writes at the end of a zone file,
and it describes the zone only from <code>posix_tz_from</code> on: in November 2026 Cuba stays on daylight time all winter,
and zic's <code>CST5CDT,M3.2.0/0,M11.1.0/1</code> would show standard time until March. Some footers also use a negative
rule hour (<code>&lt;-02&gt;2&lt;-01&gt;,M3.5.0/-1,M10.5.0/0</code> for Nuuk), which newlib reads as 65535 hours. The
device string avoids both: zic's own string wherever it is already right and safe, otherwise the simplest string right for
longest (a fixed offset, all-year DST, or this year's rules as <code>Jn</code> days), each checked against the transition
table the way these libraries evaluate it. <code>valid_until</code> is null when the string holds for good on the current
rules; <code>refresh_after</code> is then a month ahead, so a new tz database release reaches the device.
<code>/timezone/{name}/info</code> carries the same answer as <code>device_tz</code>, and <code>/device</code>
(JSON) or <code>/device.csv</code> (the two columns of <code>posix_tz_db</code>'s zones.csv) give every zone's at once
for a configuration page's dropdown, cacheable until the earliest <code>refresh_after</code>.</p>
<p>An Arduino sketch for the ESP32 that asks again at <code>refresh_after</code> (and an hour later when that fails):</p>
<pre data-run="device"><code>${escapeHtml(ARDUINO_SKETCH)}</code></pre>
<p>With ESP-IDF: <code>setenv("TZ", posix_tz, 1); tzset();</code>. CircuitPython has no TZ support in its
<code>time</code> module, so these few functions read the string as the C libraries do:</p>
<pre data-run="device"><code>${escapeHtml(CIRCUITPYTHON_TZ)}</code></pre>
<p>and the board's loop, as in Adafruit's guides:</p>
<pre data-run="device"><code>${escapeHtml(CIRCUITPYTHON_BOARD)}</code></pre>
<p>Both are run by this service's tests against its own answers: the sketch compiled with g++ against stubs of the
Arduino calls, the Python functions under CPython.</p>`,
  },
];
