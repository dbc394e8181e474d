// The code of the guide "Set an ESP32/Arduino clock", kept as text so the page shows it and
// the tests run it: test/device/guide-snippets.test.ts compiles the Arduino sketch with g++
// against stubs of the Arduino calls and runs the CircuitPython functions under python3,
// both on the real server's answers.

import { BUILD_ORIGIN } from "./origin";

/** The host the snippets name (the page shows its own origin there); the tests put the test server in its place. */
export const GUIDE_HOST = BUILD_ORIGIN;

export const ARDUINO_SKETCH = `#include <WiFi.h>
#include <HTTPClient.h>
#include <time.h>

const char *ZONE = "Europe/Berlin";
time_t refreshAt = 0;  // when to ask again (UTC, from refresh_after)

// "2027-11-22T00:00:00Z" -> unix seconds
time_t parseUtc(const String &s) {
  long y = s.substring(0, 4).toInt(), m = s.substring(5, 7).toInt(), d = s.substring(8, 10).toInt();
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
  return (time_t)days * 86400 + s.substring(11, 13).toInt() * 3600 +
         s.substring(14, 16).toInt() * 60 + s.substring(17, 19).toInt();
}

// Reads the "key: value" lines of /timezone/{zone}/device.txt; sets TZ and refreshAt.
bool askForTz() {
  HTTPClient http;
  http.begin(String("${GUIDE_HOST}/timezone/") + ZONE + "/device.txt");
  bool ok = false;
  if (http.GET() == 200) {
    String body = http.getString(), tz, refresh;
    int at = 0;
    while (at < (int)body.length()) {
      int eol = body.indexOf('\\n', at);
      if (eol < 0) eol = body.length();
      String line = body.substring(at, eol);
      if (line.startsWith("posix_tz: ")) tz = line.substring(10);
      if (line.startsWith("refresh_after: ")) refresh = line.substring(15);
      at = eol + 1;
    }
    if (tz.length() > 0 && refresh.length() > 0) {
      // NTP keeps UTC; the TZ string makes it local, right until refresh_after and beyond.
      configTzTime(tz.c_str(), "pool.ntp.org", "time.nist.gov");
      refreshAt = parseUtc(refresh);
      ok = true;
    }
  }
  http.end();
  return ok;
}

void setup() {
  Serial.begin(115200);
  WiFi.begin("your-ssid", "your-password");
  while (WiFi.status() != WL_CONNECTED) delay(500);
  configTzTime("UTC0", "pool.ntp.org", "time.nist.gov");  // UTC until the zone's string comes
  if (!askForTz()) refreshAt = 0;
}

void loop() {
  time_t now = time(nullptr);
  // Ask again at refresh_after; if that fails, keep the string and try again in an hour.
  if (now >= refreshAt && !askForTz()) refreshAt = now + 3600;
  struct tm local;
  if (getLocalTime(&local)) Serial.println(&local, "%Y-%m-%d %H:%M:%S %Z");
  delay(1000);
}
`;

/** The board-independent part: reading the answer and the TZ string, in CircuitPython's subset of Python. */
export const CIRCUITPYTHON_TZ = `def days_from_civil(y, m, d):
    if m <= 2:
        y -= 1
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def epoch(s):  # "2027-11-22T00:00:00Z" -> unix seconds
    days = days_from_civil(int(s[0:4]), int(s[5:7]), int(s[8:10]))
    return days * 86400 + int(s[11:13]) * 3600 + int(s[14:16]) * 60 + int(s[17:19])


def fetch_device(requests, host, zone):
    """(TZ string, unix time to ask again) from /timezone/{zone}/device.txt"""
    fields = {}
    for line in requests.get(host + "/timezone/" + zone + "/device.txt").text.split("\\n"):
        key, sep, value = line.partition(": ")
        if sep:
            fields[key] = value
    return fields["posix_tz"], epoch(fields["refresh_after"])


def _name(s, i):
    if s[i] == "<":
        j = s.index(">", i)
        return s[i + 1:j], j + 1
    j = i
    while j < len(s) and s[j].isalpha():
        j += 1
    return s[i:j], j


def _seconds(s, i):  # [+-]h[:mm[:ss]] -> (seconds, next index)
    sign = -1 if s[i] == "-" else 1
    if s[i] in "+-":
        i += 1
    j = i
    while j < len(s) and (s[j].isdigit() or s[j] == ":"):
        j += 1
    hms = [int(p) for p in s[i:j].split(":")] + [0, 0]
    return sign * (hms[0] * 3600 + hms[1] * 60 + hms[2]), j


def parse_tz(s):
    std, i = _name(s, 0)
    west, i = _seconds(s, i)
    tz = {"std": (std, -west), "dst": None}
    if i < len(s):
        dst, i = _name(s, i)
        dst_offset = -west + 3600
        if s[i] != ",":
            west_dst, i = _seconds(s, i)
            dst_offset = -west_dst
        tz["dst"] = (dst, dst_offset)
        tz["rules"] = []
        for rule in s[i + 1:].split(","):
            date, _, at = rule.partition("/")
            tz["rules"].append((date, _seconds(at, 0)[0] if at else 7200))
    return tz


def _rule_day(date, year):  # days since 1970-01-01
    jan1 = days_from_civil(year, 1, 1)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if date[0] == "J":
        n = int(date[1:])
        return jan1 + n - 1 + (1 if leap and n >= 60 else 0)
    if date[0] == "M":
        m, w, d = [int(x) for x in date[1:].split(".")]
        first = days_from_civil(year, m, 1)
        length = days_from_civil(year + m // 12, m % 12 + 1, 1) - first
        day = (d - (first + 4) % 7) % 7 + (w - 1) * 7  # 1970-01-01 was a Thursday
        while day >= length:
            day -= 7
        return first + day
    return jan1 + int(date)


def local_offset(tz, t):
    """(UTC offset in seconds, abbreviation, is DST) at unix time t, as C libraries read the string"""
    if tz["dst"] is None:
        return tz["std"][1], tz["std"][0], False
    year = 1970 + t // 31556952
    while days_from_civil(year, 1, 1) * 86400 > t:
        year -= 1
    while days_from_civil(year + 1, 1, 1) * 86400 <= t:
        year += 1
    (std, std_offset), (dst, dst_offset) = tz["std"], tz["dst"]
    (start_day, start_at), (end_day, end_at) = tz["rules"]
    start = _rule_day(start_day, year) * 86400 + start_at - std_offset
    end = _rule_day(end_day, year) * 86400 + end_at - dst_offset
    is_dst = start <= t < end if start < end else (t >= start or t < end)
    return (dst_offset, dst, True) if is_dst else (std_offset, std, False)
`;

/** The board part, as in Adafruit's own guides (Wi-Fi, requests, NTP into the RTC). */
export const CIRCUITPYTHON_BOARD = `import os, ssl, time, rtc, socketpool, wifi
import adafruit_ntp, adafruit_requests

pool = socketpool.SocketPool(wifi.radio)
requests = adafruit_requests.Session(pool, ssl.create_default_context())
rtc.RTC().datetime = adafruit_ntp.NTP(pool, tz_offset=0).datetime  # the RTC keeps UTC

tz, refresh_at = None, 0
while True:
    now = time.time()
    if now >= refresh_at:
        try:
            text, refresh_at = fetch_device(requests, "${GUIDE_HOST}", "Europe/Berlin")
            tz = parse_tz(text)
        except Exception as error:  # keep the last string, try again in an hour
            print("zonetime:", error)
            refresh_at = now + 3600
    if tz:
        offset, abbreviation, dst = local_offset(tz, now)
        t = time.localtime(now + offset)
        print("%04d-%02d-%02d %02d:%02d:%02d %s" % (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, abbreviation))
    time.sleep(1)
`;
