// geo-tz's quadtree and polygons -> the sections of geo.bin (server/formats/geo-format.ts).
// geo-tz's own tree is kept node for node (so a point reaches the same leaf, and the same
// polygons, as geo-tz's find), its "inside these zones" quads become answers, its sea quads
// SEA, and its polygon quads are refined by leaf-cells.ts.

import { CHILD_ANSWER, CHILD_NODE, MASK_TABLE_BITS, MAX_LEAF_FEATURES, SEA, type GeoTableInput } from "../../server/formats/geo-format.ts";
import type { GeoSource, QuadNode } from "./geo-source.ts";
import { compileLeaf, type LeafStats } from "./leaf-cells.ts";
import { childWord, quadrant, TableWriter, type Rect } from "./table-writer.ts";

// geo-tz's root box (find.ts), the runtime's too.
const ROOT: Rect = { top: 89.9999, bottom: -89.9999, left: -179.9999, right: 179.9999 };
const QUADS = ["a", "b", "c", "d"] as const;

export interface GeoCompileStats extends LeafStats {
  leaves: number;
  nodes: number;
  cells: number;
  streamWords: number;
  answers: number;
}

/** Zone lists, each stored once; an answer is the index of its list. */
class Answers {
  readonly names: string[] = [];
  readonly offsets: number[] = [0];
  readonly zones: number[] = [];
  private readonly nameIndex = new Map<string, number>();
  private readonly byKey = new Map<string, number>();
  private readonly validNames: ReadonlySet<string>;

  constructor(validNames: ReadonlySet<string>) {
    this.validNames = validNames;
  }

  of(list: readonly string[]): number {
    const key = list.join("\n");
    let id = this.byKey.get(key);
    if (id !== undefined) return id;
    for (const name of list) {
      if (!this.validNames.has(name)) throw new Error(`geo: the boundary data names ${name}, which our tzdb does not have`);
      let n = this.nameIndex.get(name);
      if (n === undefined) {
        n = this.names.length;
        this.names.push(name);
        this.nameIndex.set(name, n);
      }
      this.zones.push(n);
    }
    id = this.offsets.length - 1;
    this.offsets.push(this.zones.length);
    this.byKey.set(key, id);
    return id;
  }
}

export function compileGeo(source: GeoSource, validNames: ReadonlySet<string>): { table: Omit<GeoTableInput, "metadata">; stats: GeoCompileStats } {
  const answers = new Answers(validNames);
  const out = new TableWriter();
  const maskTables: number[] = [];
  const maskTableIndex = new Map<string, number>();
  const stats: GeoCompileStats = { inexactVertices: 0, sharedEdges: 0, referenceRetries: 0, leaves: 0, nodes: 0, cells: 0, streamWords: 0, answers: 0 };

  // geo-tz's own nodes first (a parent is numbered before its children), leaving the slots of
  // polygon leaves to fill as geo-tz hands each leaf over.
  const pending = new Map<string, { slot: number; rect: Rect }>();
  const walk = (node: QuadNode, path: string, rect: Rect): number => {
    const index = out.allocNode();
    QUADS.forEach((q, i) => {
      const child = node[q];
      const childRect = quadrant(rect, i);
      if (child === undefined) {
        out.nodes.set(4 * index + i, childWord(CHILD_ANSWER, SEA));
      } else if (Array.isArray(child)) {
        // geo-tz answers these zones in this order (find.ts: curTzData.map).
        out.nodes.set(4 * index + i, childWord(CHILD_ANSWER, answers.of(child.map((z) => source.timezones[z]!))));
      } else if ("pos" in child) {
        pending.set(path + q, { slot: 4 * index + i, rect: childRect });
      } else {
        out.nodes.set(4 * index + i, childWord(CHILD_NODE, walk(child, path + q, childRect)));
      }
    });
    return index;
  };
  walk(source.root, "", ROOT);

  source.leaves((path, features) => {
    const leaf = pending.get(path);
    if (!leaf) throw new Error(`geo: ${source.version} has polygons for quad ${path}, which its tree does not point to`);
    pending.delete(path);
    if (features.length > MAX_LEAF_FEATURES) throw new Error(`geo: quad ${path} has ${features.length} polygons; the format allows ${MAX_LEAF_FEATURES}`);
    // The answer for each set of this leaf's features: their zones in feature order, as geo-tz
    // lists every feature containing the point; none means the sea.
    const table = Array.from({ length: 1 << features.length }, (_, mask) =>
      mask === 0 ? SEA : answers.of(features.filter((_, f) => mask & (1 << f)).map((f) => f.tzid)));
    const key = table.join(",");
    let start = maskTableIndex.get(key);
    if (start === undefined) {
      start = maskTables.length;
      if (start + table.length > 1 << MASK_TABLE_BITS) throw new Error("geo: too many distinct leaves for the mask table index");
      maskTables.push(...table);
      maskTableIndex.set(key, start);
    }
    stats.leaves++;
    out.nodes.set(leaf.slot, compileLeaf(out, features, leaf.rect, start, (mask) => table[mask]!, stats));
  });
  if (pending.size > 0) throw new Error(`geo: ${source.version} has no polygons for quads ${[...pending.keys()].slice(0, 5).join(", ")}`);

  const ocean = source.ocean;
  const oceanAnswers = [
    ...ocean.map((band) => answers.of([band.tzid])),
    // A longitude on the edge of two bands gets both (oceanUtils.ts), east first.
    ...ocean.map((band, i) => answers.of(i + 1 < ocean.length ? [band.tzid, ocean[i + 1]!.tzid] : [band.tzid])),
    answers.of(["Etc/GMT+12", "Etc/GMT-12"]),
    answers.of(ocean.map((band) => band.tzid)),
  ];
  Object.assign(stats, {
    nodes: out.nodes.length / 4, cells: out.cellCount, streamWords: out.stream.length, answers: answers.offsets.length - 1,
  });
  return {
    table: {
      oceanBands: Float64Array.from(ocean.flatMap((b) => [b.left, b.right])),
      nodes: out.nodes.toArray(),
      cells: out.cells.toArray(),
      answerOffsets: Uint32Array.from(answers.offsets),
      maskTables: Uint32Array.from(maskTables),
      oceanAnswers: Uint32Array.from(oceanAnswers),
      answerZones: Uint16Array.from(answers.zones),
      stream: out.stream.toArray(),
      names: answers.names,
    },
    stats,
  };
}
