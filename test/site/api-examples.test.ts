// The API reference shows an example request beside each native endpoint, with the answer the
// service gave it at build. Each shown answer, read from the page in Chromium, must be what
// the running service answers now to the same request from the same caller, line for line,
// except the fields the example itself marks live (a /health uptime, /sync's t1 and t2) and,
// for /metrics, the counts (its metric names and help lines must match).

import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/test-server.ts";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";
import { isJson } from "../../scripts/site/api-examples.ts";

let session: SiteSession;
beforeAll(async () => {
  session = await startSiteSession();
}, 180_000);
afterAll(() => session?.close(), 30_000);

/** The operationIds of the native API (not the dialects), from the service's own OpenAPI document. */
function nativeOperationIds(): string[] {
  const openapi = JSON.parse(readFileSync(join(ROOT, "server", "http", "openapi.json"), "utf8"));
  return Object.values(openapi.paths as Record<string, Record<string, { operationId?: string; tags?: string[] }>>)
    .flatMap((item) => Object.values(item))
    .filter((op) => !(op.tags ?? []).some((t) => t.endsWith("dialect")))
    .map((op) => op.operationId!);
}

/** An answer as the page shows it: JSON indented by two spaces; other text as it is. */
function displayed(body: string, contentType: string): string[] {
  const text = isJson(contentType) ? JSON.stringify(JSON.parse(body), null, 2) : body.replace(/\n$/, "");
  return text.split("\n");
}

/** A `"key": value` line (or an XML `<key>value</key>` line) of a live key, its value blanked. */
const maskLive = (line: string, live: string[]) => {
  const m = /^(\s*"([^"]+)": )(.*?)(,?)$/.exec(line);
  if (m && live.includes(m[2]!)) return `${m[1]}…${m[4]}`;
  const x = /^(\s*<([a-z_]+)>).*(<\/\2>)$/.exec(line);
  return x && live.includes(x[2]!) ? `${x[1]}…${x[3]}` : line;
};
/** The metric name of an exposition line (`name{labels} value`), or the whole line for # HELP/# TYPE. */
const metricOf = (line: string) => (line.startsWith("#") ? line : line.split(/[{ ]/)[0]!);

test("every native endpoint on /docs/ shows an example request and the answer the service gives it", async () => {
  const context = await session.browser.newContext({ extraHTTPHeaders: VISITOR });
  const page = await context.newPage();
  await page.goto(`${session.base}/docs/`);
  const shown = await page.$$eval("section[id] .example", (els: any[]) => els.map((e) => ({
    section: e.closest("section").id as string,
    request: e.dataset.request as string,
    live: JSON.parse(e.dataset.live) as string[] | "metric-names",
    curl: e.querySelector("pre[data-run=shell]").textContent as string,
    answer: e.querySelector("pre[data-run=answer]").textContent as string,
  })));
  await context.close();

  // One beside each native endpoint of the OpenAPI document, none missing.
  expect(shown.map((s) => s.section).sort()).toEqual(nativeOperationIds().sort());
  const wrong: unknown[] = [];
  for (const s of shown) {
    // The request shown is the one asked: the curl line names it on the page's own origin.
    expect(s.curl).toBe(`curl '${session.base}${s.request}'`);
    const response = await fetch(`${session.base}${s.request}`, { headers: VISITOR });
    const live = displayed(await response.text(), response.headers.get("content-type") ?? "");
    const lines = s.answer.split("\n");
    if (response.status !== 200) wrong.push({ request: s.request, status: response.status });
    else if (s.live === "metric-names") {
      const names = new Set(live.map(metricOf));
      const missing = lines.map(metricOf).filter((m) => !names.has(m));
      if (missing.length > 0) wrong.push({ request: s.request, missing });
    } else {
      const mask = (l: string) => maskLive(l, s.live as string[]);
      const got = lines.map(mask), want = live.slice(0, lines.length).map(mask);
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ request: s.request, got, want });
    }
  }
  expect(wrong).toEqual([]);
  expect(shown.length).toBeGreaterThanOrEqual(18);
}, 120_000);
