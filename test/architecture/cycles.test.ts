// No import cycles among server/ and site/ modules (type-only and dynamic imports count: a
// cycle of types still ties the files together for a reader and for a refactor). On a
// failure the test prints every cycle: its files, and the shortest circle through each.
import { describe, expect, test } from "bun:test";
import { describeCycles, importCycles } from "../support/import-cycles.ts";
import { importsUnder } from "../support/import-scan.ts";

const edge = (from: string, to: string) => ({ from, to });

describe("import cycles", () => {
  test("the finder sees a file importing itself, two files, a longer circle, and nothing in a diamond", () => {
    expect(importCycles([edge("a", "b"), edge("a", "c"), edge("b", "d"), edge("c", "d")])).toEqual([]);
    expect(importCycles([edge("a", "a")])).toEqual([{ files: ["a"], circles: [["a", "a"]] }]);
    expect(importCycles([edge("b", "a"), edge("a", "b"), edge("b", "c")])).toEqual([{ files: ["a", "b"], circles: [["a", "b", "a"]] }]);
    expect(importCycles([edge("x", "y"), edge("y", "z"), edge("z", "x"), edge("z", "w")])).toEqual([{ files: ["x", "y", "z"], circles: [["x", "y", "z", "x"]] }]);
  });

  test("the finder reports each cycle apart, with the shortest circle through every file of it", () => {
    // A hub imported by two spokes that it imports back, and a separate pair elsewhere.
    const found = importCycles([
      edge("hub", "spoke1"), edge("spoke1", "hub"), edge("hub", "spoke2"), edge("spoke2", "hub"), edge("spoke2", "spoke1"),
      edge("p", "q"), edge("q", "p"), edge("hub", "p"),
    ]);
    expect(found).toEqual([
      { files: ["hub", "spoke1", "spoke2"], circles: [["hub", "spoke1", "hub"], ["hub", "spoke2", "hub"]] },
      { files: ["p", "q"], circles: [["p", "q", "p"]] },
    ]);
    expect(describeCycles(found)).toEqual([
      "3 files in one cycle: hub, spoke1, spoke2",
      "  hub -> spoke1 -> hub",
      "  hub -> spoke2 -> hub",
      "2 files in one cycle: p, q",
      "  p -> q -> p",
    ]);
  });

  test("the scan resolves the site's extensionless imports and leaves out ?raw text imports", () => {
    const imports = importsUnder("site/src");
    const pages = imports.filter((i) => i.from.startsWith("site/src/pages/"));
    expect(pages.some((i) => i.to === "site/src/lib/data.ts")).toBe(true);
    expect(imports.some((i) => i.textOnly && i.to === "site/src/lib/clock-offset.js")).toBe(true);
  });

  test("none among server/ and site/ modules", () => {
    const imports = importsUnder("server", "site/src").filter((i) => !i.textOnly);
    expect(imports.length).toBeGreaterThan(200);
    expect(describeCycles(importCycles(imports))).toEqual([]);
  });
});
