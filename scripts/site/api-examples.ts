// The API reference's example beside each endpoint: one request per native operation, asked of
// the real fetch handler in process on the tables just built, its answer published as the
// service gave it (site-data/api-examples.json). Nothing is written by hand but the requests,
// so an answer cannot go stale: test/site/api-examples.test.ts asks the running service the
// same requests and compares, minus the fields that are live by nature (`live`).
//
// Instants are fixed with ?at= where a route takes one, so the answers are the same on every
// build. Requests come from 8.8.8.8 (a stand-in socket peer), so /ip and client_ip show an
// answer with a location, as a visitor's would.

import { createFetchHandler } from "../../server/http/pipeline/handler.ts";
import { createAppState } from "../../server/http/pipeline/app-state.ts";
import { realtimeClock } from "../../server/core/clock.ts";
import { readConfig } from "../../server/process/config.ts";
import { loadData } from "../../server/process/load-data.ts";

/** The address the examples are asked from. */
export const EXAMPLE_CALLER = "8.8.8.8";
const AT = 1795219200; // 2026-11-21T00:00:00Z
/** Answers longer than this many lines are shown by their first lines. */
const MAX_LINES = 40;

/**
 * Per operationId: the request, and what in its answer is live: JSON keys whose values differ
 * from one moment to the next, or "metric-names" (a /metrics answer: only its metric names and
 * help lines stay; its counts are the build's own).
 */
export const EXAMPLE_REQUESTS: Record<string, { request: string; live?: string[] | "metric-names" }> = {
  listTimezones: { request: "/timezone?country=DE" },
  getTimezoneOrArea: { request: `/timezone/Europe/London?at=${AT}` },
  getCallerTime: { request: `/ip?at=${AT}` },
  getAddressTime: { request: `/ip/8.8.8.8?at=${AT}` },
  getCoordinatesTime: { request: `/coordinates/51.5074,-0.1278?at=${AT}` },
  searchPlaces: { request: "/places?q=new%20yo&country=US&limit=2" },
  health: { request: "/health", live: ["worker", "uptime_seconds", "serving_clock_agrees", "serving_clock_skew_ms", "synchronised", "kernel_state", "estimated_error_us", "max_error_us"] },
  metrics: { request: "/metrics", live: "metric-names" },
  getTransitions: { request: "/timezone/Europe/London/transitions?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z" },
  getZoneInfo: { request: `/timezone/Europe/London/info?at=${AT}` },
  convert: { request: "/convert?time=2026-03-08T02:30:00&from=America/New_York&to=Europe/London" },
  getWorldClock: { request: `/clock?zones=America/New_York,Europe/London,Asia/Kathmandu&at=${AT}` },
  sync: { request: "/sync?t0=1795219200123.456", live: ["t1", "t2"] },
  getWorldTimeApiAlias: { request: `/api/Europe/London?at=${AT}` },
  getApiIndex: { request: "/api" },
  getDeviceTz: { request: `/timezone/Europe/London/device?at=${AT}` },
  getDeviceTzList: { request: `/device?at=${AT}` },
  getDeviceTzCsv: { request: `/device.csv?at=${AT}` },
  getTzdbReleases: { request: "/tzdb" },
  getReleaseChanges: { request: "/tzdb/2025b/changes" },
  getNameChanges: { request: "/timezone/America/Asuncion/changes?from=2024a&to=2025a" },
  // The newest release's entry is dated by the build where NEWS has no date for it.
  getTzdbFeedAtom: { request: "/tzdb/feed.atom", live: ["updated"] },
  getTzdbFeedJson: { request: "/tzdb/feed.json", live: ["date_published"] },
  getNameFeedAtom: { request: "/timezone/America/Asuncion/feed.atom" },
  getNameFeedJson: { request: "/timezone/America/Asuncion/feed.json" },
};

export interface ApiExample {
  request: string;
  status: number;
  contentType: string;
  /** The answer as shown: JSON indented by two spaces, its first MAX_LINES lines at most. */
  answer: string;
  lines: number;
  live: string[] | "metric-names";
}

/** An answer's text as the page shows it (the test makes the live answer's the same way). */
export function displayed(body: string, contentType: string): string[] {
  const text = isJson(contentType) ? JSON.stringify(JSON.parse(body), null, 2) : body.replace(/\n$/, "");
  return text.split("\n");
}

/** application/json, or a JSON-based type (`application/feed+json`). */
export function isJson(contentType: string): boolean {
  return /^application\/([a-z.-]+\+)?json\b/.test(contentType);
}

export async function apiExamples(dataDir: string): Promise<Record<string, ApiExample>> {
  const config = readConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, WORKERS: "1", RATE_LIMIT: "off", SITE_DIR: "/nonexistent" });
  const handler = createFetchHandler(createAppState(await loadData(dataDir), realtimeClock, config));
  // The socket peer the handler asks for (Server.requestIP): the example caller.
  const peer = { requestIP: () => ({ address: EXAMPLE_CALLER, family: "IPv4", port: 40000 }) } as unknown as Parameters<typeof handler>[1];
  const out: Record<string, ApiExample> = {};
  for (const [id, { request, live = [] }] of Object.entries(EXAMPLE_REQUESTS)) {
    const response = await handler(new Request(`http://127.0.0.1${request}`, { headers: { accept: "*/*" } }), peer);
    const contentType = response.headers.get("content-type") ?? "";
    const lines = displayed(await response.text(), contentType);
    if (response.status !== 200) throw new Error(`API example ${request} answered ${response.status}`);
    out[id] = { request, status: response.status, contentType, answer: lines.slice(0, MAX_LINES).join("\n"), lines: lines.length, live };
  }
  return out;
}
