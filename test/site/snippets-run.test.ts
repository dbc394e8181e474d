// "What we ship, we have run" for the site's snippets (issue 34): every code block on every
// page, copied from the page as a reader copies it (the copy button where there is one, the
// block's text otherwise), is run against the service that served the page: shell lines
// with curl, JavaScript in the page itself, Python with python3. Each block says what it
// is (<pre data-run>); a block of no known kind fails the test. No host in them is a
// placeholder: every one is the page's own origin, and no served file names zonetime.example.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { ARDUINO_SKETCH, CIRCUITPYTHON_BOARD, CIRCUITPYTHON_TZ, GUIDE_HOST } from "../../site/src/lib/guides-device-code.ts";
import { requireTool } from "../support/require-tool.ts";
import { startSiteSession, VISITOR, type SiteSession } from "../support/site-browser.ts";
import { testSiteDir } from "../support/test-server.ts";

let session: SiteSession;
let base: string;
let context: BrowserContext;
const dir = mkdtempSync(join(tmpdir(), "zonetime-snippets-"));

beforeAll(async () => {
  session = await startSiteSession();
  base = session.base;
  context = await session.browser.newContext({
    extraHTTPHeaders: VISITOR,
    permissions: ["clipboard-read", "clipboard-write", "geolocation"],
    geolocation: { latitude: 27.7172, longitude: 85.324 },
  });
}, 180_000);
afterAll(async () => {
  await context?.close();
  await session?.close();
}, 30_000);

interface Block { page: string; index: number; kind: string; text: string }

/** Every code block of `path` as the reader copies it, after the page's scripts have run. */
async function blocksOf(page: Page, path: string): Promise<Block[]> {
  await page.goto(`${base}${path}`);
  await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => {});
  const found = await page.$$eval("main pre", (pres: any[]) => pres.map((pre) => ({
    kind: pre.dataset.run ?? "(none)",
    text: pre.textContent as string,
    button: pre.parentElement?.querySelector("button[data-copy]") ? pre.querySelector("code")?.id ?? null : null,
  })));
  const out: Block[] = [];
  for (const [index, b] of found.entries()) {
    let text = b.text;
    if (b.button) {
      await page.click(`button[data-copy="${b.button}"]`);
      // The button writes the clipboard after the click has returned (writeText is a promise):
      // read it again for up to 5 s until it holds the block.
      const readClipboard = () => page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>);
      const until = Date.now() + 5000;
      text = await readClipboard();
      while (text !== b.text && Date.now() < until) {
        await Bun.sleep(20);
        text = await readClipboard();
      }
      expect({ path, copied: text }).toEqual({ path, copied: b.text });
    }
    out.push({ page: path, index, kind: b.kind, text });
  }
  return out;
}

/**
 * Runs a program to its end without blocking this process: the service under test answers
 * from this very process, so a synchronous spawn would leave the program's requests unanswered.
 */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out, err };
}

/** Runs one shell line under bash with pipefail, curl failing on an HTTP error. */
async function runShell(line: string): Promise<{ ok: boolean; out: string }> {
  requireTool("curl");
  // As the browser's snippets do, curl asks as a public visitor behind the trusted proxy (VISITOR),
  // so /ip has a location, as it has for anyone who copies the line.
  const visitor = Object.entries(VISITOR).map(([k, v]) => `-H '${k}: ${v}'`).join(" ");
  const script = `set -o pipefail\ncurl() { command curl ${visitor} --fail-with-body -sS "$@"; }\n${line}\n`;
  const r = await run([requireTool("bash"), "-c", script]);
  return { ok: r.code === 0 && r.out.trim() !== "", out: r.out + r.err };
}

/** Runs `code` as a module script in a page of this site; it must finish without an error, every answer of the service a success. `asked`: how many requests it made. */
async function runJs(code: string): Promise<{ ok: boolean; asked: number; detail: string }> {
  const page = await context.newPage();
  await page.goto(`${base}/404.html`);
  await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => {});
  // From here on, only what the snippet asks.
  const errors: string[] = [];
  const answers: number[] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  const busy = (delta: number) => { inFlight += delta; lastActivity = Date.now(); };
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", () => busy(1));
  page.on("requestfinished", () => busy(-1));
  page.on("requestfailed", () => busy(-1));
  page.on("response", (r) => answers.push(r.status()));
  await page.addScriptTag({ type: "module", content: `${code}\n;globalThis.snippetDone = true;` });
  await page.waitForFunction(() => (globalThis as any).snippetDone === true, null, { timeout: 20_000 }).catch(() => errors.push("did not finish"));
  // A snippet may ask from a callback after its script has ended (geolocation's): its requests
  // are waited for until none has been in flight for two seconds. ("networkidle" cannot tell:
  // the page reached it before the snippet ran, so it returns at once, and a slow callback's
  // request was lost when the page closed: 3 of 4 snippets asked, in a run of test/site whole.)
  const quietUntil = Date.now() + 15_000;
  while (Date.now() < quietUntil && (inFlight > 0 || Date.now() - lastActivity < 2000)) await Bun.sleep(50);
  await page.close();
  const ok = errors.length === 0 && answers.every((s) => s < 400);
  return { ok, asked: answers.length, detail: `errors ${JSON.stringify(errors)}, answers ${JSON.stringify(answers)}` };
}

/** Runs `code` under python3; it must exit 0. `printed`: whether it wrote anything (a block that only defines functions prints nothing). */
async function runPython(code: string, index: number): Promise<{ ok: boolean; printed: boolean; out: string }> {
  const file = join(dir, `snippet-${index}.py`);
  writeFileSync(file, code);
  const r = await run([requireTool("python3"), file]);
  return { ok: r.code === 0, printed: r.out.trim() !== "", out: r.out + r.err };
}

const urlsIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'`)<>]+/g)].map((m) => m[0].replace(/[.,]$/, ""));

/** URLs that name a format, not a host to ask: Atom's namespace, JSON Feed's version (the feeds' examples on /docs/). */
const FORMAT_IDENTIFIERS = ["http://www.w3.org/2005/Atom", "https://jsonfeed.org/version/1.1"];

describe("every snippet on the served site runs", () => {
  test("copied from each page and run against the service: shell, JavaScript, Python; links back answer", async () => {
    const page = await context.newPage();
    const blocks: Block[] = [];
    for (const path of session.pages) blocks.push(...(await blocksOf(page, path)));
    await page.close();
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    const count = (kind: string, n = 1) => (counts[kind] = (counts[kind] ?? 0) + n);
    for (const b of blocks) {
      const where = `${b.page} block ${b.index} (${b.kind})`;
      // No host but the page's own (and the formats' own identifiers: a feed names its spec).
      for (const url of urlsIn(b.text)) if (!url.startsWith(base) && !/^https?:\/\/(www\.)?(iana|github|pool\.ntp|time\.nist)/.test(url) && !FORMAT_IDENTIFIERS.includes(url)) failures.push(`${where}: names ${url}`);
      // Every block before it on the same page of the same kind: functions a later block calls.
      const earlier = blocks.filter((o) => o.page === b.page && o.kind === b.kind && o.index < b.index).map((o) => o.text);
      switch (b.kind) {
        case "shell": {
          const lines = b.text.split("\n").filter((l) => l.startsWith("curl "));
          if (lines.length === 0) failures.push(`${where}: no command`);
          for (const line of lines) {
            const r = await runShell(line);
            count("shell command");
            if (!r.ok) failures.push(`${where}: ${line} -> ${r.out.slice(0, 200)}`);
          }
          break;
        }
        case "js": {
          const r = await runJs([...earlier, b.text].join("\n"));
          count("JavaScript");
          if (r.asked > 0) count("JavaScript that asked the service");
          if (!r.ok) failures.push(`${where}: ${r.detail}`);
          break;
        }
        case "python": {
          const r = await runPython([...earlier, b.text].join("\n"), blocks.indexOf(b));
          count("Python");
          if (r.printed) count("Python that printed");
          if (!r.ok) failures.push(`${where}: ${r.out.slice(0, 300)}`);
          break;
        }
        case "attribution":
        case "sdk": {
          // Links back and SDK base addresses: each is this service and answers.
          const urls = urlsIn(b.text);
          if (b.kind === "sdk" && urls.length === 0) failures.push(`${where}: no address`);
          for (const url of urls) {
            const status = (await fetch(url)).status;
            count(`${b.kind} address`);
            if (status !== 200) failures.push(`${where}: ${url} answered ${status}`);
          }
          if (b.kind === "attribution" && !b.text.includes(new URL(base).host)) failures.push(`${where}: does not name this host`);
          break;
        }
        case "device": {
          // Board code: test/device/guide-snippets.test.ts compiles the sketch (g++) and runs the
          // Python under python3 from these very constants; the page must show them, for this host.
          const shown = [ARDUINO_SKETCH, CIRCUITPYTHON_TZ, CIRCUITPYTHON_BOARD].map((code) => code.split(GUIDE_HOST).join(base));
          count("device code");
          if (!shown.includes(b.text)) failures.push(`${where}: not the code test/device runs`);
          break;
        }
        case "value":
          count("value");
          if (b.text.trim() === "" || b.text.includes("—")) failures.push(`${where}: empty`);
          break;
        case "answer":
          count("answer shown");
          break;
        default:
          failures.push(`${where}: a code block that does not say what it is (data-run)`);
      }
    }
    console.log(`snippets run: ${JSON.stringify(counts)} in ${blocks.length} blocks on ${session.pages.length} pages`);
    expect(failures).toEqual([]);
    expect(counts["shell command"]).toBeGreaterThanOrEqual(25);
    expect(counts["JavaScript that asked the service"]).toBeGreaterThanOrEqual(4);
    expect(counts["Python that printed"]).toBeGreaterThanOrEqual(1);
  }, 300_000);

  test("every zone page's curl commands, as the page shows them for its origin, answer 200", async () => {
    // The 597 pages share one template (the browser ran four of them above): here each one's
    // commands, read from the served page with the origin the page's script writes in.
    const siteDir = await testSiteDir();
    const pages: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name === "index.html") pages.push(`/${relative(siteDir, d).split(sep).join("/")}/`);
      }
    };
    walk(join(siteDir, "zones"));
    expect(pages.length).toBeGreaterThan(590);
    const failures: string[] = [];
    let commands = 0;
    for (const path of pages) {
      const html = await (await fetch(`${base}${path}`)).text();
      const code = /<code id="zone-curl"[^>]*>([\s\S]*?)<\/code>/.exec(html)?.[1];
      if (!code) {
        failures.push(`${path}: no curl block`);
        continue;
      }
      const text = code.replace(/<span data-origin="origin">[^<]*<\/span>/g, base).replace(/<[^>]+>/g, "").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
      for (const line of text.split("\n")) {
        const url = /^curl "?([^"\s]+)"?$/.exec(line)?.[1];
        commands++;
        const status = url ? (await fetch(url)).status : 0;
        if (status !== 200) failures.push(`${path}: ${line} -> ${status}`);
      }
    }
    console.log(`zone pages: ${commands} curl commands on ${pages.length} pages`);
    expect(failures).toEqual([]);
    expect(commands).toBe(pages.length * 4);
  }, 300_000);

  test("no served file names the placeholder host zonetime.example", async () => {
    const siteDir = await testSiteDir();
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (!/\.(br|gz)$/.test(e.name)) files.push(`/${relative(siteDir, join(d, e.name)).split(sep).join("/")}`);
      }
    };
    walk(siteDir);
    expect(files.length).toBeGreaterThan(600);
    const naming: string[] = [];
    for (const path of files) {
      const body = await (await fetch(`${base}${path}`, { headers: { "Accept-Encoding": "identity" } })).text();
      if (body.includes("zonetime.example")) naming.push(path);
    }
    expect(naming).toEqual([]);
  }, 120_000);
});
