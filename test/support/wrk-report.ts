// wrk's summary, parsed strictly. The "requests in" and "Requests/sec" lines are always
// printed, so their absence is a failure. wrk prints "Socket errors" and "Non-2xx or 3xx
// responses" only when there were some: an absent line means 0, a line that does not
// parse is a failure (a changed format must not read as "no errors").

export interface WrkReport {
  requests: number;
  requestsPerSecond: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  non2xx3xx: number;
}

/** The line `marker` finds, which must then match `pattern` in full; null when no line has the marker. */
function optionalLine(out: string, marker: RegExp, pattern: RegExp): RegExpExecArray | null {
  const line = out.split("\n").map((l) => l.trim()).find((l) => marker.test(l));
  if (line === undefined) return null;
  const m = pattern.exec(line);
  if (!m) throw new Error(`wrk: cannot parse "${line}"`);
  return m;
}

function requiredLine(out: string, marker: RegExp, pattern: RegExp): RegExpExecArray {
  const m = optionalLine(out, marker, pattern);
  if (!m) throw new Error(`wrk printed no line matching ${marker}:\n${out}`);
  return m;
}

export function parseWrk(out: string): WrkReport {
  const requests = requiredLine(out, / requests in /, /^(\d+) requests in [\d.]+\w+, [\d.]+\w+ read$/);
  const rate = requiredLine(out, /^Requests\/sec:/, /^Requests\/sec:\s+([\d.]+)$/);
  const errors = optionalLine(out, /^Socket errors/, /^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$/);
  const non2xx = optionalLine(out, /^Non-2xx/, /^Non-2xx or 3xx responses: (\d+)$/);
  return {
    requests: Number(requests[1]),
    requestsPerSecond: Number(rate[1]),
    socketErrors: errors
      ? { connect: Number(errors[1]), read: Number(errors[2]), write: Number(errors[3]), timeout: Number(errors[4]) }
      : { connect: 0, read: 0, write: 0, timeout: 0 },
    non2xx3xx: non2xx ? Number(non2xx[1]) : 0,
  };
}
