/// <reference types="vite/client" />
// The guides about clocks: many zones in one call (/clock) and a client's clock offset
// (/sync). The offset functions are shown from the very files the home page's panel runs
// and test/site/clock-offset-snippets.test.ts executes against a real server.

import type { Guide } from "./guide";
import { BUILD_ORIGIN } from "./origin";
import offsetJs from "./clock-offset.js?raw";
import offsetPy from "./clock_offset.py?raw";

const escape = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

export const clockGuides: Guide[] = [
  {
    slug: "world-clock",
    title: "A world clock in one call",
    summary: "Many zones, one request, one reading of the clock.",
    html: `<p><code>GET /clock?zones=America/New_York,Europe/London,Asia/Kathmandu</code> answers a JSON array with the time
object of each name, in the order asked (a name twice is answered twice), all for <strong>one</strong> reading of the
clock: every object has the same <code>unixtime</code> and microseconds, so the clocks of a dashboard never disagree by
the time between two requests. Each object is exactly what <code>/timezone/{name}?at=</code> answers at that instant.</p>
<pre data-run="shell"><code>curl -s '/clock?zones=America/New_York,Europe/London,Asia/Kathmandu'
curl -s '/clock.txt?zones=UTC,Asia/Tokyo'          # key: value lines, a blank line between zones
curl -s '/api/clock?zones=Europe/Berlin,US/Pacific' # the WorldTimeAPI profile's objects
curl -s '/clock?zones=Europe/Dublin,Australia/Sydney&amp;at=2027-01-01T00:00:00Z'</code></pre>
<p>Up to 100 names, in any spelling the single route accepts (any letter case, Links too); more is a <code>400</code>, and an
unknown name is a <code>404</code> whose message names it (<code>unknown location: Mars/Olympus_Mons</code>). A request
of <em>n</em> zones costs <em>n</em> requests of your <a href="/guides/rate-limits/">rate budget</a>: the same as asking
one by one, in one round trip.</p>`,
  },
  {
    slug: "clock-offset",
    title: "How far off is your clock?",
    summary: "Measure a browser's or device's clock against ours with /sync.",
    html: `<p><code>GET /sync?t0=T</code> is NTP's exchange over HTTP. Send your clock's time <code>t0</code> (unix milliseconds,
up to three fraction digits); the answer echoes it with our clock's time when the request arrived (<code>t1</code>) and
just before the answer left (<code>t2</code>), in unix milliseconds with microseconds:</p>
<pre data-run="answer"><code>{"t0":1795219200123.456,"t1":1795219200391.208,"t2":1795219200391.250}</code></pre>
<p>Note your clock's time <code>t3</code> when the answer arrives. Then, as RFC 5905 has it,
<code>offset = ((t1 - t0) + (t2 - t3)) / 2</code> is what to add to your clock to read ours, and
<code>delay = (t3 - t0) - (t2 - t1)</code> is the time the network took. Whatever the network did, the true offset lies within
<code>offset ± delay / 2</code>; over a few round trips, the one with the least delay gives the tightest bound. The home
page's "Your clock" panel does exactly this with the function below.</p>
<p>JavaScript (browsers, Node 18+, Bun, Deno):</p>
<pre data-run="js"><code>${escape(offsetJs)}</code></pre>
<pre data-run="js"><code>const { offset, bound } = await clockOffset("${BUILD_ORIGIN}");
console.log(\`your clock is \${(-offset / 1000).toFixed(3)} s ahead (± \${(bound / 1000).toFixed(3)} s)\`);</code></pre>
<p>Python 3 (standard library only):</p>
<pre data-run="python"><code>${escape(offsetPy)}</code></pre>
<pre data-run="python"><code>offset, bound = clock_offset("${BUILD_ORIGIN}")
print(f"your clock is {-offset / 1000:.3f} s ahead (± {bound / 1000:.3f} s)")</code></pre>
<p>The answer is never cached (<code>Cache-Control: no-store</code>) and carries the same values as
<code>Server-Timing: t1;dur=…, t2;dur=…</code> with <code>Timing-Allow-Origin: *</code>, so a page can also read them from
Resource Timing. <code>/sync</code> costs one request of your rate budget, as a time object does. If this instance's clock
has left the system clock (<code>/health</code> says <code>clock_diverged</code>), it answers <code>503</code> rather than a
wrong time: ask again. A <code>t0</code> that is not such a number (text, <code>1e400</code>, negative, too long) is a
<code>400</code>; leave it out and <code>t0</code> is <code>null</code>.</p>`,
  },
];
