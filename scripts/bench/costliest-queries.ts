// The costliest query of every route (issue 30: "every route's worst query"), each a
// family of requests (the n-th a new instant or window where answers are kept per query,
// so that every request is a build): what answer-prices.ts prices and longest-block.ts
// times. `releases`: the releases served, newest first (GET /tzdb).

export interface Row {
  label: string;
  count: number;
  /** The n-th request: a path, or a POST. */
  request: (n: number) => { path: string; body?: string };
}

export const UNIT = "/timezone/Europe/London";
const FIRST_SECOND = -62135596800; // 0001-01-01T00:00:00Z
const LAST_SECOND = 253402300799; // 9999-12-31T23:59:59Z

const randomInstant = (n: number, from: number, to: number) => Math.floor(from + ((n * 7919 + 104729) % 1_000_003) / 1_000_003 * (to - from));
const everyYear = (n: number) => randomInstant(n, FIRST_SECOND, LAST_SECOND);
const twentiethCentury = (n: number) => randomInstant(n, -2208988800, 946684800);

export const costliestQueries = (releases: string[]): Row[] => [
  { label: "time object (the unit)", count: 4000, request: () => ({ path: UNIT }) },
  { label: "/device?at= random year 0001-9999", count: 120, request: (n) => ({ path: `/device?at=${everyYear(n)}` }) },
  { label: "/device?at= random instant 1900-2000", count: 120, request: (n) => ({ path: `/device?at=${twentiethCentury(n)}` }) },
  { label: "/device.csv?at= random instant 1900-2000", count: 120, request: (n) => ({ path: `/device.csv?at=${twentiethCentury(n) + 1}` }) },
  { label: "/device (now)", count: 400, request: () => ({ path: "/device" }) },
  { label: "transitions 0001-9999, a new window each", count: 200, request: (n) => ({ path: `/timezone/America/New_York/transitions?from=0001-01-01T00:00:00Z&to=${LAST_SECOND - n}` }) },
  { label: "/timezone/{name}/device?at= year 1900-2000", count: 1000, request: (n) => ({ path: `/timezone/Europe/Paris/device?at=${twentiethCentury(n)}` }) },
  { label: "/timezone/{name}/info", count: 2000, request: () => ({ path: "/timezone/Europe/Paris/info" }) },
  { label: "/convert far range", count: 2000, request: (n) => ({ path: `/convert?time=${9000 + (n % 999)}-06-01T12:00:00&from=America/New_York&to=Asia/Kolkata` }) },
  { label: "/clock?zones= 100 names", count: 400, request: () => ({ path: `/clock?zones=${Array.from({ length: 100 }, (_, i) => ["Europe/London", "America/New_York", "Asia/Tokyo", "Australia/Sydney"][i % 4]).join(",")}` }) },
  { label: "/timezone (the list)", count: 2000, request: () => ({ path: "/timezone" }) },
  { label: "/timezone?q=a (a prefix of many keys)", count: 1000, request: (n) => ({ path: `/timezone?q=${"abcdefghijklmnopqrstuvwxyz"[n % 26]}` }) },
  { label: "/places?q=san&limit=50", count: 1000, request: (n) => ({ path: `/places?q=${["san", "new", "port", "saint"][n % 4]}&limit=50` }) },
  { label: "TimeZoneDB list-time-zone (json)", count: 1000, request: () => ({ path: "/v2.1/list-time-zone?key=K&format=json" }) },
  { label: "TimeZoneDB list-time-zone (xml)", count: 1000, request: () => ({ path: "/v2.1/list-time-zone?key=K&format=xml" }) },
  { label: "TimeZoneDB get-time-zone by=city", count: 1000, request: (n) => ({ path: `/v2.1/get-time-zone?key=K&format=json&by=city&city=${["San", "New", "Port"][n % 3]}&country=US` }) },
  { label: "timeapi.io AvailableTimeZones", count: 2000, request: () => ({ path: "/api/TimeZone/AvailableTimeZones" }) },
  { label: "timeapi.io ConvertTimeZone (POST)", count: 2000, request: (n) => ({ path: "/api/Conversion/ConvertTimeZone", body: JSON.stringify({ fromTimeZone: "Europe/Amsterdam", dateTime: `${1 + (n % 9998)}`.padStart(4, "0") + "-03-28 02:30:00", toTimeZone: "America/Los_Angeles", dstAmbiguity: "" }) }) },
  { label: "Google timezone", count: 2000, request: (n) => ({ path: `/maps/api/timezone/json?location=38.908133,-77.047119&timestamp=${1458000000 + n}` }) },
  // The time machine (issue 33): releases from GET /tzdb, newest first.
  { label: "/tzdb/{release}/changes each release's own", count: 100, request: (n) => ({ path: `/tzdb/${releases[n % (releases.length - 1)]}/changes` }) },
  { label: "/tzdb/{release}/changes?since= a far pair each", count: 40, request: (n) => ({ path: `/tzdb/${releases[n % 20]}/changes?since=${releases[releases.length - 1 - Math.floor(n / 20)]}` }) },
  // US/Eastern: the name New York had in the oldest release (92c), a link to it since.
  { label: "/timezone/{name}/changes oldest..newest", count: 400, request: (n) => ({ path: `/timezone/US/Eastern/changes?from=${releases.at(-1)}&to=${releases[0]}&end=${2100 + (n % 7000)}-01-01T00:00:00Z` }) },
  { label: "/device?tzdb= random instant 1900-2000", count: 120, request: (n) => ({ path: `/device?tzdb=${releases[1 + (n % (releases.length - 1))]}&at=${twentiethCentury(n)}` }) },
];
