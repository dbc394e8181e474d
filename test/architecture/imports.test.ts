// The layering of server/README.md, checked from the import statements themselves: every
// import (type-only and dynamic ones included, as TypeScript's own pre-processor lists
// them) of every file in server/, scripts/ and site/src. The rules are read from the
// README's `layers` and `scripts-may-import` blocks, so the picture and the check cannot
// drift apart.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { codeFiles, type Import, importsOf, importsUnder, ROOT } from "../support/import-scan.ts";

const README = readFileSync(join(ROOT, "server", "README.md"), "utf8");

function fencedBlock(info: string): string[] {
  const start = README.indexOf("```" + info + "\n");
  if (start < 0) throw new Error(`server/README.md has no \`\`\`${info} block`);
  const body = README.slice(start + info.length + 4, README.indexOf("\n```", start + 3));
  return body.split("\n").map((l) => l.trim()).filter((l) => l !== "");
}

/** folder -> the folders it may import (itself included). */
const LAYERS = new Map<string, Set<string>>(
  fencedBlock("layers").map((line) => {
    const [folder, rest] = line.split(/\s+imports:\s*/) as [string, string];
    const name = folder.replace(/\/$/, "");
    const allowed = rest.split(/\s+/).filter((f) => f.endsWith("/")).map((f) => f.replace(/\/$/, ""));
    return [name, new Set([name, ...allowed])];
  }),
);
const SCRIPTS_MAY_IMPORT = new Set(fencedBlock("scripts-may-import"));

/** The layer of a server/ path (its first folder), or null for a file at server/'s top. */
const layerOf = (path: string) => {
  const parts = path.split("/");
  return parts.length > 2 ? parts[1]! : null;
};

/** Every rule broken by `imports`, one line each. */
export function violations(imports: readonly Omit<Import, "textOnly">[]): string[] {
  const out: string[] = [];
  for (const { from, to } of imports) {
    if (from.startsWith("server/")) {
      if (to.startsWith("scripts/")) out.push(`${from} imports ${to}: server/ never imports scripts/`);
      if (!to.startsWith("server/")) continue;
      const here = layerOf(from);
      const there = layerOf(to);
      if (here === null || !LAYERS.has(here)) {
        out.push(`${from}: server/${here ?? ""} is no layer of server/README.md (add it to the layers block)`);
        continue;
      }
      if (there === null || !LAYERS.get(here)!.has(there)) out.push(`${from} imports ${to}: ${here}/ may import only ${[...LAYERS.get(here)!].map((l) => `${l}/`).join(" ")}`);
    } else if (from.startsWith("scripts/")) {
      if (to.startsWith("server/") && !to.startsWith("server/formats/") && !SCRIPTS_MAY_IMPORT.has(to)) {
        out.push(`${from} imports ${to}: scripts/ imports only server/formats/ and the modules server/README.md names`);
      }
    } else if (from.startsWith("site/")) {
      if (to.startsWith("server/") || to.startsWith("scripts/")) out.push(`${from} imports ${to}: site/ reads only what the build publishes`);
    }
  }
  return out;
}

const allImports = importsUnder("server", "scripts", "site/src");

describe("imports follow server/README.md", () => {
  test("the README's blocks are read: every server/ folder with code is a layer, every named module exists", () => {
    expect(LAYERS.size).toBeGreaterThanOrEqual(8);
    const folders = readdirSync(join(ROOT, "server"), { withFileTypes: true }).filter((d) => d.isDirectory() && [...codeFiles(join(ROOT, "server", d.name))].length > 0);
    for (const folder of folders) expect(LAYERS.has(folder.name)).toBe(true);
    for (const module of SCRIPTS_MAY_IMPORT) expect(readdirSync(join(ROOT, dirname(module)))).toContain(module.split("/").pop()!);
  });

  test("the scan sees the imports there are (type-only, multi-line, dynamic, re-exports)", () => {
    const source = `import type { A } from "../core/a.ts";\nimport {\n  b,\n} from "./b.ts";\nexport { c } from "../tz/c.ts";\nconst d = await import("../http/d.ts");\n// import e from "../e.ts" (a comment)\n`;
    const found = importsOf(join(ROOT, "server", "ops", "x.ts"), source).map((i) => i.to);
    expect(found).toEqual(["server/core/a.ts", "server/ops/b.ts", "server/tz/c.ts", "server/http/d.ts"]);
    expect(allImports.length).toBeGreaterThan(200);
  });

  test("the rules catch each kind of bad import", () => {
    expect(violations([{ from: "server/core/calendar.ts", to: "server/http/routing/route-table.ts" }])).toHaveLength(1);
    expect(violations([{ from: "server/ops/metrics.ts", to: "server/http/routing/route-table.ts" }])).toHaveLength(1);
    expect(violations([{ from: "server/tz/zone-table.ts", to: "server/ip/address.ts" }])).toHaveLength(1);
    expect(violations([{ from: "server/http/routes/time-objects.ts", to: "scripts/build.ts" }])).toHaveLength(1);
    expect(violations([{ from: "scripts/build.ts", to: "server/process/service.ts" }])).toHaveLength(1);
    expect(violations([{ from: "site/src/lib/data.ts", to: "server/core/calendar.ts" }])).toHaveLength(1);
    expect(violations([{ from: "server/http/routes/time-objects.ts", to: "server/tz/zone-table.ts" }, { from: "scripts/build.ts", to: "server/formats/manifest.ts" }])).toEqual([]);
  });

  test("no server/ folder imports one above it, server/ never imports scripts/, scripts/ and site/ only what they may", () => {
    expect(violations(allImports)).toEqual([]);
  });
});
