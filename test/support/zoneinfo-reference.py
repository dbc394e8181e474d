# Python's zoneinfo as the reference for local time -> instant: reads TZif files from the
# TZDIR given (the ones the machine's zic compiled from our source), never the system's.
# stdin: {"tzdir": "...", "queries": [[name, year, month, day, hour, minute, second], ...]}
# stdout: one JSON array per query: [unix seconds with fold=0, with fold=1, kind], where
# kind is "unique", "skipped" (in a gap) or "repeated" (in an overlap), as PEP 495 defines.
import json
import sys
import zoneinfo
from datetime import datetime, timedelta, timezone

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
SECOND = timedelta(seconds=1)

request = json.load(sys.stdin)
zoneinfo.reset_tzpath(to=[request["tzdir"]])
zones = {}
out = []
for name, *fields in request["queries"]:
    tz = zones.get(name)
    if tz is None:
        tz = zones[name] = zoneinfo.ZoneInfo.no_cache(name)
    naive = datetime(*fields)
    first = naive.replace(tzinfo=tz, fold=0)
    second = naive.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        kind = "unique"
    else:
        back = first.astimezone(timezone.utc).astimezone(tz).replace(tzinfo=None)
        kind = "repeated" if back == naive else "skipped"
    # Whole seconds: (aware - epoch) is exact, where float timestamp() loses precision far from 1970.
    out.append([(first - EPOCH) // SECOND, (second - EPOCH) // SECOND, kind])
json.dump(out, sys.stdout)
