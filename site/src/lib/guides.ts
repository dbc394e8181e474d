// The guides, as short HTML bodies; one page each under /guides/{slug}/.

import { dialectGuides } from "./guides-dialects";
import { clockGuides } from "./guides-clock";
import { zoneRuleGuides } from "./guides-zone-rules";
import type { Guide } from "./guide";

export type { Guide };

export const guides: Guide[] = [
  {
    slug: "migration",
    title: "Moving from WorldTimeAPI",
    summary: "Change the host; keep the client.",
    html: `<p>Every WorldTimeAPI path exists here under <code>/api</code>, with the same fields, order and formats:
<code>https://worldtimeapi.org/api/timezone/Europe/London</code> becomes <code>/api/timezone/Europe/London</code> on this host.
The same goes for <code>/api/timezone</code>, <code>/api/ip</code>, <code>/api/ip/{address}</code> and the <code>.txt</code> forms.</p>
<p>What differs: the answers follow the newest tz database release (WorldTimeAPI stayed on 2024a), so a few
zones differ where the rules changed since (Paraguay since 2024b, Moldova's transition times since 2025a, Cuba, Manitoba,
Alberta and Morocco in 2026). An address with no location (a private network) answers 404 instead of a guess.
The root paths (without <code>/api</code>) are the same API with <code>Z</code> in UTC instants instead of <code>+00:00</code>.</p>`,
  },
  {
    slug: "time-at-a-place",
    title: "The time at a place",
    summary: "Latitude and longitude in, the local time out.",
    html: `<p>A phone, a photo's GPS tag or a click on a map gives coordinates, not a zone name.
<code>/coordinates/{latitude},{longitude}</code> answers with the time object of the zone at that point, in decimal degrees,
latitude first (as maps write them):</p>
<pre data-run="shell"><code>curl /coordinates/51.5074,-0.1278          # London: Europe/London
curl /coordinates/27.7172,85.3240.txt      # Kathmandu, as key: value lines
curl '/coordinates/-33.8688,151.2093?at=2027-01-01T00:00:00Z'</code></pre>
<p>The zone comes from the timezone-boundary-builder polygons (OpenStreetMap data), tested point for point against
their reference library, borders and coastlines exact to the data's microdegree. <code>timezone</code> is the zone's
canonical name, so <code>?at=</code> in the past follows that place's own history. At sea, beyond territorial
waters, the answer is the nautical zone of the longitude (<code>Etc/GMT+2</code> in the mid-Atlantic: POSIX signs, so
that is UTC-02:00).</p>
<p>Where the data gives one place two clocks (Xinjiang keeps both Beijing time and Urumqi time; some disputed areas), the
answer is the data's first zone, and the <code>X-Other-Timezones</code> header lists the others, comma-separated
(readable from browser code too). The time object itself stays the same shape as everywhere else.</p>
<p>Anything but two plain decimal numbers in range is a <code>400</code> whose message says which part is wrong:
<code>91,0</code>, <code>0,181</code>, <code>1e5,0</code>, <code>NaN,NaN</code>.</p>
<p>In the browser, the position comes from <code>navigator.geolocation</code>, which asks the user first:</p>
<pre data-run="js"><code>navigator.geolocation.getCurrentPosition(async ({ coords }) => {
  const r = await fetch(\`/coordinates/\${coords.latitude},\${coords.longitude}\`);
  const { timezone, datetime } = await r.json();
});</code></pre>`,
  },
  {
    slug: "plain-text",
    title: "Plain text answers",
    summary: "Append .txt for key: value lines.",
    html: `<p>Append <code>.txt</code> to any path for <code>text/plain</code>: one <code>key: value</code> line per field
(a null prints as an empty value), or one name per line for lists. Shell scripts can grep it:</p>
<pre data-run="shell"><code>curl -s /timezone/Europe/London.txt | grep '^datetime' | cut -d' ' -f2</code></pre>
<p>Errors come as the message alone, with the same status codes as JSON.</p>`,
  },
  {
    slug: "at",
    title: "Another instant: at",
    summary: "Ask about the past or the future.",
    html: `<p><code>?at=</code> answers for an instant other than now: unix seconds with up to six fraction digits
(<code>?at=1759315363.821684</code>) or an RFC 3339 instant (<code>?at=2026-11-21T00:00:00Z</code>,
<code>?at=2026-11-21T01:00:00%2B01:00</code>: encode <code>+</code> as <code>%2B</code>), from <code>0001-01-01T00:00:00Z</code> to <code>9999-12-31T23:59:59.999999Z</code>, as long
as the zone's local time is in years 0001-9999 too (at the very ends, zones away from UTC answer 400). A DST period
ending after 9999 has a null <code>dst_until</code>. Before a zone's first
transition the answer is its local mean time, with seconds in the offset where it has them (<code>-00:01:15</code> for London in 1800).</p>`,
  },
  {
    slug: "cors",
    title: "From the browser (CORS)",
    summary: "Call the API from any web page.",
    html: `<p>Every answer, errors included, carries <code>Access-Control-Allow-Origin: *</code>; preflight requests are answered
and cached for a day. No credentials are used or accepted, so call it with a plain <code>fetch</code>:</p>
<pre data-run="js"><code>const r = await fetch("/timezone/Asia/Tokyo");
if (!r.ok) throw new Error((await r.json()).error);
const { datetime, abbreviation } = await r.json();</code></pre>
<p>The tz database release travels in the <code>X-Tzdb-Version</code> header, readable from scripts.</p>`,
  },
  {
    slug: "errors",
    title: "Errors",
    summary: "One shape, the right status.",
    html: `<p>Every error has one shape, <code>{"error": "&lt;message&gt;"}</code>, and a status that says whose it is:</p>
<ul><li><code>400</code> malformed input: <code>malformed ip</code>, an invalid <code>at</code>, a broken percent-escape;</li>
<li><code>404</code> <code>unknown location</code> (a name that is not a timezone, an address without location) or an unknown path;</li>
<li><code>405</code> a method other than GET, HEAD or OPTIONS (with <code>Allow</code>);</li>
<li><code>429</code> too many requests (with <code>Retry-After</code>).</li></ul>
<p>An instance that is restarting finishes what it has and closes its connections
(<code>Connection: close</code>); a client simply reconnects. Its <code>/health</code> answers 503 meanwhile.</p>`,
  },
  {
    slug: "rate-limits",
    title: "Rate limits",
    summary: "Fair use for a free service.",
    html: `<p>Each client address (IPv6 by /64) may make 120 requests in a burst, refilled at two per second. Over the limit
the answer is <code>429</code> with <code>Retry-After</code> (seconds), <code>RateLimit-Policy</code> and <code>RateLimit</code>.
A clock needs one request a minute at most: fetch once, then count locally from <code>unixtime</code> and the offsets.</p>`,
  },
  ...zoneRuleGuides,
  ...dialectGuides,
  ...clockGuides,
];
