// No module of the site imports one that imports it back, directly or round a longer loop:
// guides.ts once listed the guides that guides-*.ts supply while those files took the
// Guide type from guides.ts. The imports are read as TypeScript's pre-processor lists them
// (type-only ones included: a loop of types is a loop a reader must follow too).
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dir, "..", "..");
const SITE_SRC = join(ROOT, "site", "src");

function* codeFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = join(folder, entry.name);
    if (entry.isDirectory()) yield* codeFiles(full);
    else if (/\.(ts|js|mjs|astro)$/.test(entry.name)) yield full;
  }
}

/** A relative specifier as Vite resolves it: as written, or with .ts/.js added; `?raw` imports are text, not modules. */
function resolveSpecifier(from: string, spec: string): string | null {
  if (spec.includes("?")) return null;
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.js`].find((p) => existsSync(p) && /\.(ts|js|mjs|astro)$/.test(p)) ?? null;
}

const rel = (p: string) => relative(ROOT, p).split(sep).join("/");

/** Every loop in the import graph of `files`, as "a -> b -> a". */
export function importLoops(graph: Map<string, string[]>): string[] {
  const loops: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") loops.push([...path.slice(path.indexOf(next)), next].map(rel).join(" -> "));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return loops;
}

const graph = new Map<string, string[]>();
for (const file of codeFiles(SITE_SRC)) {
  const imported = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolveSpecifier(file, spec))
    .filter((p): p is string => p !== null);
  graph.set(file, imported);
}

test("the loop finder finds a loop of two and one of three, and none in a chain", () => {
  expect(importLoops(new Map([["/a", ["/b"]], ["/b", ["/a"]]]))).toHaveLength(1);
  expect(importLoops(new Map([["/a", ["/b"]], ["/b", ["/c"]], ["/c", ["/a"]]]))).toHaveLength(1);
  expect(importLoops(new Map([["/a", ["/b"]], ["/b", ["/c"]], ["/c", []]]))).toEqual([]);
});

test("no module in site/src imports one that imports it back", () => {
  // The scan sees the site's imports (the guides import the three files that supply guides).
  expect(graph.get(join(SITE_SRC, "lib", "guides.ts"))!.length).toBeGreaterThanOrEqual(3);
  expect(importLoops(graph)).toEqual([]);
});
