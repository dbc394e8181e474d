# Your clock against zonetime's, by NTP's on-wire formula over a few round trips to /sync.
# Returns (offset, bound) in milliseconds: add offset to your clock to read ours (negative:
# yours is ahead); the true offset lies within offset ± bound (half the least delay, plus
# the timestamps' microsecond steps).
import http.client, json, time
from urllib.parse import urlsplit

def clock_offset(base, rounds=8):
    url = urlsplit(base)
    connect = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    conn, best = connect(url.netloc, timeout=10), None
    try:
        for _ in range(rounds):
            t0 = time.time_ns() / 1e6
            conn.request("GET", f"{url.path.rstrip('/')}/sync?t0={t0:.3f}")
            response = conn.getresponse()
            raw = response.read()
            t3 = time.time_ns() / 1e6
            if response.status != 200:
                raise RuntimeError(f"/sync answered {response.status}: {raw!r}")
            t = json.loads(raw)
            delay = (t3 - t0) - (t["t2"] - t["t1"])
            if best is None or delay < best[1]:
                best = (((t["t1"] - t0) + (t["t2"] - t3)) / 2, delay)
    finally:
        conn.close()
    return best[0], best[1] / 2 + 0.002
