// The README fits on a screen and points at the rest: every route of the API (the dialects
// aside) is linked to its entry in the API reference, every link into the repository lands
// on a file, and every #anchor on a heading there.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { ROOT } from "../support/test-server.ts";

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const DOC_FILES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const openapi = JSON.parse(read("server/http/openapi.json")) as { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };
const operations = Object.values(openapi.paths).flatMap((item) => Object.values(item)).filter((op) => op.operationId);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, "").replace(/ /g, "-");
const anchorsIn = (file: string) => new Set([...read(file).matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]!)));

describe("README.md", () => {
  test("is at most 150 lines", () => {
    expect(read("README.md").trimEnd().split("\n").length).toBeLessThanOrEqual(150);
  });

  test("links every route of the API to its entry in the API reference, and nothing else there", () => {
    const linked = [...read("README.md").matchAll(/\]\(http:\/\/localhost:8080\/docs\/#([^)]+)\)/g)].map((m) => m[1]!);
    const ids = new Set(operations.map((op) => op.operationId!));
    expect(linked.filter((id) => !ids.has(id))).toEqual([]);
    const routes = operations.filter((op) => !(op.tags ?? []).some((t) => t.endsWith("dialect"))).map((op) => op.operationId!);
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(routes.filter((id) => !linked.includes(id))).toEqual([]);
  });
});

test("every relative link in README.md and docs/ lands on a file, and its #anchor on a heading", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of DOC_FILES) {
    for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // a web address, not the repository
      checked++;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const resolved = path === "" ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, resolved))) broken.push(`${file}: ${target} (no ${resolved})`);
      else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsIn(resolved).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  expect(checked).toBeGreaterThan(30);
  expect(broken).toEqual([]);
});

// A file named in the text (`server/http/limits/reconnect-backoff.ts`) is a link a reader
// follows by hand: after a move it must follow too.
test("every repository file README.md, docs/ and server/README.md name in code spans exists", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const file of [...DOC_FILES, "server/README.md"]) {
    for (const [, path] of read(file).matchAll(/`((?:server|scripts|test|site)\/[A-Za-z0-9_./-]+\.(?:ts|yaml|conf|vcl|astro|md|sh|json))`/g)) {
      checked++;
      if (!existsSync(join(ROOT, path!))) missing.push(`${file}: ${path}`);
    }
  }
  expect(checked).toBeGreaterThan(50);
  expect(missing).toEqual([]);
});
