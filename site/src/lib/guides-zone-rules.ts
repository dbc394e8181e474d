// The guides about a zone's rules rather than its present: the changes ahead
// (/timezone/{name}/transitions) and a microcontroller's clock (posix_tz from /info).

import type { Guide } from "./guides";

export const zoneRuleGuides: Guide[] = [
  {
    slug: "dst-changes-ahead",
    title: "DST changes ahead",
    summary: "Every clock change in a window, before it happens.",
    html: `<p><code>GET /timezone/{name}/transitions?from=&amp;to=</code> lists every instant in <code>[from, to)</code> where the
zone's UTC offset, abbreviation or DST flag changes. <code>from</code> and <code>to</code> take the <code>at</code> syntax (unix
seconds or an RFC 3339 instant); without them the window is one year from now. Any window inside years 0001-9999 works:
past the data's last explicit rule the answer comes from the rules that repeat forever, exactly as <code>zic</code> compiles them.</p>
<pre><code>curl -s '/timezone/America/New_York/transitions?from=2027-01-01T00:00:00Z&amp;to=2028-01-01T00:00:00Z'</code></pre>
<pre><code>{"timezone":"America/New_York","from":"2027-01-01T00:00:00Z","to":"2028-01-01T00:00:00Z",
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
    summary: "One request for the zone's rules, then local time offline.",
    html: `<p>A microcontroller does not need to ask for the time every hour: give its C library the zone's rules once, as a POSIX
TZ string, and let NTP keep UTC. <code>/timezone/{name}/info</code> answers <code>posix_tz</code>, the string
<code>zic</code> itself writes at the end of every compiled zone file, so it is exactly what a Linux or BSD system
would use (<code>EST5EDT,M3.2.0,M11.1.0</code> for New York, <code>&lt;+0545&gt;-5:45</code> for Kathmandu).</p>
<pre><code>#include &lt;WiFi.h&gt;
#include &lt;HTTPClient.h&gt;
#include &lt;ArduinoJson.h&gt;
#include &lt;time.h&gt;

void setClock(const char *zone) {
  HTTPClient http;
  http.begin(String("https://zonetime.example/timezone/") + zone + "/info");
  if (http.GET() == 200) {
    JsonDocument doc;
    deserializeJson(doc, http.getString());
    // configTzTime copies the string; NTP sets UTC, the TZ string makes it local.
    configTzTime(doc["posix_tz"] | "UTC0", "pool.ntp.org", "time.nist.gov");
  }
  http.end();
}

void loop() {
  struct tm now;
  if (getLocalTime(&amp;now)) Serial.println(&amp;now, "%Y-%m-%d %H:%M:%S %Z");
  delay(1000);
}</code></pre>
<p>With ESP-IDF: <code>setenv("TZ", posix_tz, 1); tzset();</code>. The plain-text form is handy on small parsers:
<code>curl -s /timezone/Europe/Berlin/info.txt | grep '^posix_tz:'</code>.</p>
<p>Two things to know. <code>posix_tz_from</code> is the instant from which the string alone describes the zone; for
earlier dates the zone's history differs, so use the string for the present and the future. And the rules change a few
times a year somewhere in the world (a country abolishes DST, moves a date): fetch the string again now and then, say
weekly, and keep the last one that worked. Some strings use the RFC 9636 extension of hours beyond 24 or below 0 in a rule
(<code>EET-2EEST,M3.4.4/50,M10.4.4/50</code> for Gaza, <code>&lt;-02&gt;2&lt;-01&gt;,M3.5.0/-1,M10.5.0/0</code> for Nuuk),
which newlib and glibc accept; a C library that does not will misplace those transitions.</p>`,
  },
];
