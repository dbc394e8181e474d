// The guides for clients of other time APIs: timeapi.io, TimeZoneDB and Google's Time Zone
// API are answered at their own paths, so moving is changing the host. Every path shown
// here is requested by test/http/dialects/guides.test.ts.

import type { Guide } from "./guide";
import { BUILD_ORIGIN } from "./origin";

export const dialectGuides: Guide[] = [
  {
    slug: "from-timeapi-io",
    title: "Moving from timeapi.io",
    summary: "Same paths under /api, legacy and v1; change the host.",
    html: `<p>timeapi.io's routes answer here at the same paths, with the same field names, order and formats: replace
<code>https://timeapi.io</code> (or <code>www.timeapi.io</code>) with this host and keep the rest.</p>
<pre data-run="shell"><code>curl '/api/Time/current/zone?timeZone=Europe/Amsterdam'
curl '/api/TimeZone/zone?timeZone=America/New_York'
curl '/api/TimeZone/coordinate?latitude=52.37&amp;longitude=4.89'
curl '/api/TimeZone/ip?ipAddress=8.8.8.8'
curl '/api/timezone/availabletimezones'
curl '/api/Conversion/DayOfTheYear/2026-06-11'
curl -X POST -H 'Content-Type: application/json' -d '{"fromTimeZone":"America/New_York","dateTime":"2026-04-18 12:00:00","toTimeZone":"Europe/London"}' '/api/Conversion/ConvertTimeZone'
curl '/api/v1/time/current/zone?timezone=Asia/Kolkata'
curl '/api/v1/timezone/zone?timeZone=America/Chicago'
curl '/api/v1/time/current/unix'</code></pre>
<p>Paths and query names match in any letter case, as timeapi.io's clients send them (<code>/api/TimeZone/zone</code> and
<code>/api/timezone/zone</code>, <code>timeZone=</code> and <code>timezone=</code>). The legacy <code>TimeZone</code> JSON is sent
chunked in one chunk, as timeapi.io's server does: Seeed's SenseCAP firmware skips the chunk size before parsing and works
unchanged. The shorter <code>Time/current</code> answers go out with a <code>Content-Length</code> instead.
Conversions and calculations take a JSON body or a form. Errors are timeapi.io's: the text <code>Invalid Timezone</code>
with a 400 on the legacy routes, <code>{"detail": "..."}</code> on v1.</p>
<p>What differs: fractions of a second have six digits (timeapi.io's .NET clock gives seven); <code>dstInterval</code> of a zone
whose DST is not in force describes the next DST period; <code>/api/Conversion/Translate</code> is not answered. What is better:
the newest tz database release (a zone's rule change reaches the answers as soon as it is published), IPv6 addresses in
<code>ipAddress</code>, the same answers for coordinates and addresses as <code>/coordinates</code> and <code>/ip</code>, and no
certificate to pin: firmware that pins timeapi.io's certificate needs a build that trusts this host's.</p>`,
  },
  {
    slug: "from-timezonedb",
    title: "Moving from TimeZoneDB",
    summary: "/v2.1/ and /v2/, any key, no premium tier.",
    html: `<p>TimeZoneDB's endpoints answer here at <code>/v2.1/</code> and <code>/v2/</code>: replace
<code>api.timezonedb.com</code> (or <code>vip.timezonedb.com</code>) with this host. The <code>key</code> is accepted and ignored,
so keep whatever your client sends.</p>
<pre data-run="shell"><code>curl '/v2.1/get-time-zone?key=any&amp;format=json&amp;by=zone&amp;zone=America/Denver'
curl '/v2.1/get-time-zone?key=any&amp;format=json&amp;by=zone&amp;zone=CDT'
curl '/v2.1/get-time-zone?key=any&amp;format=json&amp;by=position&amp;lat=40.71&amp;lng=-74.01'
curl '/v2.1/get-time-zone?key=any&amp;format=json&amp;by=city&amp;country=US&amp;city=Portland'
curl '/v2.1/get-time-zone?key=any&amp;format=json&amp;by=ip&amp;ip=2001:4860:4860::8888'
curl '/v2.1/list-time-zone?key=any&amp;format=json&amp;zone=America/*'
curl '/v2.1/convert-time-zone?key=any&amp;format=json&amp;from=America/Los_Angeles&amp;to=Australia/Sydney'
curl '/v2/get-time-zone?key=any&amp;by=zone&amp;zone=Europe/London&amp;fields=dst,dstStart,dstEnd,gmtOffset'</code></pre>
<p>The answers keep TimeZoneDB's conventions: XML unless <code>format=json</code>, <code>/</code> escaped as <code>\\/</code> in
JSON, <code>dst</code> the string <code>"0"</code> or <code>"1"</code>, <code>timestamp</code> the local wall time as unix seconds,
<code>zoneStart</code>/<code>zoneEnd</code> on <code>/v2.1/</code> and <code>dstStart</code>/<code>dstEnd</code> on <code>/v2/</code>,
<code>fields=</code> and JSONP <code>callback=</code> (a plain identifier only), and mistakes as HTTP 200 with
<code>{"status":"FAILED","message":"..."}</code>.</p>
<p>What is better: <code>by=city</code> and <code>by=ip</code> (premium there) are free here, IPv6 included; there is no one request
a second limit (the limit is 120 in a burst, two a second after); and the offsets follow the newest tz database release.
What differs: <code>regionName</code> and <code>cityName</code> are filled for <code>by=city</code> only; a city search answers
ten places a page.</p>`,
  },
  {
    slug: "from-google-time-zone",
    title: "Moving from Google's Time Zone API",
    summary: "The official SDKs' base-URL option, no key, no billing.",
    html: `<p><code>/maps/api/timezone/json</code> and <code>/maps/api/timezone/xml</code> answer as Google's do: the same parameters,
statuses, field names and formatting (sorted keys, three-space indent; seven decimals in XML). Point an SDK at this host
through its base-URL option; any <code>key</code> works (Python's SDK refuses keys not starting with <code>AIza</code> before it
sends anything, so give it any such string):</p>
<pre data-run="shell"><code>curl '/maps/api/timezone/json?location=39.6034810,-119.6822510&amp;timestamp=1331161200&amp;key=AIzaAnything'
curl '/maps/api/timezone/json?location=19.076,72.8777&amp;timestamp=1700000000&amp;language=es'
curl '/maps/api/timezone/xml?location=-33.8688,151.2093&amp;timestamp=0'</code></pre>
<pre data-run="sdk"><code># Python: googlemaps.Client(key="AIzaAnything", base_url="${BUILD_ORIGIN}")
# JavaScript: client.timezone({ params: {...}, url: "${BUILD_ORIGIN}/maps/api/timezone/json" })
# Go: maps.NewClient(maps.WithAPIKey("AIzaAnything"), maps.WithBaseURL("${BUILD_ORIGIN}"))
# Java: new GeoApiContext.Builder().apiKey("AIzaAnything").baseUrlOverride("${BUILD_ORIGIN}")</code></pre>
<p><code>timeZoneId</code> is CLDR's canonical id as Google gives it (<code>Asia/Calcutta</code>), <code>timeZoneName</code> CLDR's long
name in force at <code>timestamp</code>, in <code>language</code> or else the <code>Accept-Language</code> header's. Every answer is HTTP
200 with a <code>status</code>: <code>INVALID_REQUEST</code> with an <code>errorMessage</code> for a bad location or timestamp,
<code>ZERO_RESULTS</code> on the open sea, <code>OVER_QUERY_LIMIT</code> past our rate limit.</p>
<p>What is better: no key, no billing (Google charges about $5 per 1,000 requests), and history: an instant in the past
gets that place's rules then (Google does not model historical changes). What differs: <code>dstOffset</code> and
<code>rawOffset</code> follow the tz database's own split, so Dublin's winter is <code>rawOffset 3600, dstOffset -3600</code>
(their sum, the offset in force, is the same as Google's).</p>`,
  },
];
