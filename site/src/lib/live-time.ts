// Browser side of the live clocks: fetch a time object from this service and keep
// showing its wall-clock time as seconds pass. The displayed time is the API's, advanced
// by the elapsed milliseconds; the browser's own timezone rules (ICU, often stale) are
// never asked.

export interface TimeObject {
  timezone: string;
  datetime: string;
  utc_offset: string;
  abbreviation: string;
  dst: boolean;
  unixtime: number;
  client_ip: string | null;
}

export interface FetchedTime {
  time: TimeObject;
  at: number;
  /** /coordinates where the data gives the place more than one zone: the others (X-Other-Timezones). */
  others: string[];
}

export type TimeResult = FetchedTime | { error: string; status: number };

/** One request, its body always read (an unread body keeps the request open in the browser). */
export async function fetchTime(path: string): Promise<TimeResult> {
  try {
    const response = await fetch(path, { cache: "no-store" });
    const body = await response.json();
    if (!response.ok) return { error: body.error ?? `HTTP ${response.status}`, status: response.status };
    const others = response.headers.get("X-Other-Timezones");
    return { time: body as TimeObject, at: performance.now(), others: others ? others.split(",").map((z) => z.trim()) : [] };
  } catch (e) {
    return { error: String(e), status: 0 };
  }
}

const two = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DD hh:mm:ss` of the time object's local time plus `elapsedMs`. */
export function wallClock(datetime: string, elapsedMs: number): string {
  const [date, time] = datetime.split("T") as [string, string];
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  const [h, mi] = time.split(":").map(Number) as [number, number];
  const seconds = Number(time.slice(6, 15));
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, 0) + seconds * 1000 + elapsedMs);
  return `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}`;
}

/**
 * Keeps `element`'s [data-role=time] ticking for a time object; re-asks the API every minute.
 * `first`: an answer for `path()` already fetched, shown instead of asking again.
 */
export function runClock(element: HTMLElement, path: () => string, describe: (t: TimeObject, others: string[]) => string | Node[], first?: TimeResult): () => void {
  const timeEl = element.querySelector<HTMLElement>("[data-role=time]")!;
  const metaEl = element.querySelector<HTMLElement>("[data-role=meta]")!;
  let current: FetchedTime | null = null;
  let stopped = false;
  let given = first;
  const load = async () => {
    const result = given ?? (await fetchTime(path()));
    given = undefined;
    if (stopped) return;
    if ("error" in result) {
      current = null;
      timeEl.textContent = "—";
      metaEl.textContent = result.error;
      element.dataset.state = "error";
      return;
    }
    current = result;
    element.dataset.state = "live";
    element.dataset.timezone = result.time.timezone;
    const described = describe(result.time, result.others);
    metaEl.replaceChildren(...(typeof described === "string" ? [described] : described));
    tick();
  };
  const tick = () => {
    if (current) timeEl.textContent = wallClock(current.time.datetime, performance.now() - current.at);
  };
  const ticker = setInterval(tick, 250);
  const refresher = setInterval(load, 60_000);
  void load();
  return () => {
    stopped = true;
    clearInterval(ticker);
    clearInterval(refresher);
  };
}

/** A zone's name as a link to its page: every zone name on the site leads there. */
export function zoneLink(name: string): HTMLAnchorElement {
  const a = document.createElement("a");
  a.href = `/zones/${name}/`;
  a.textContent = name;
  return a;
}

export const describeTime = (t: TimeObject) =>
  `${t.timezone} · UTC${t.utc_offset} · ${t.abbreviation}${t.dst ? " · DST" : ""}`;

/** describeTime with the zone's name a link to its page; `before` and `after` are text around it. */
export const describeTimeLinked = (t: TimeObject, before = "", after = ""): Node[] =>
  [before, zoneLink(t.timezone), `${describeTime(t).slice(t.timezone.length)}${after}`].filter((n) => n !== "").map((n) => (typeof n === "string" ? document.createTextNode(n) : n));
