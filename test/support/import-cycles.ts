// Import cycles in a graph of files: the strongly connected components (Tarjan), each told
// as its members and, for each member, the shortest circle back to it. A component can hold
// exponentially many circles; the shortest one through each file is enough to see which
// import to cut, and it is the same on every run.

export interface Edge {
  from: string;
  to: string;
}

export interface Cycle {
  /** The files that import each other, sorted. */
  files: string[];
  /** Shortest circles through each file, each starting at its smallest file, deduplicated and sorted. */
  circles: string[][];
}

function adjacency(edges: readonly Edge[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    if (!next.get(from)!.includes(to)) next.get(from)!.push(to);
  }
  for (const targets of next.values()) targets.sort();
  return next;
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on deep chains). */
function components(next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    index.set(root, counter); low.set(root, counter); counter++;
    stack.push(root); onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next.get(frame.node)!;
      if (frame.child < targets.length) {
        const to = targets[frame.child++]!;
        if (!index.has(to)) {
          index.set(to, counter); low.set(to, counter); counter++;
          stack.push(to); onStack.add(to);
          work.push({ node: to, child: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        out.push(component.sort());
      }
    }
  }
  return out;
}

/** The shortest path from `start` back to itself inside `within` (breadth first), as [start, ..., start]. */
function shortestCircle(start: string, next: Map<string, string[]>, within: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  let frontier = [start];
  while (frontier.length > 0) {
    const following: string[] = [];
    for (const node of frontier) {
      for (const to of next.get(node)!) {
        if (!within.has(to)) continue;
        if (to === start) {
          const path = [node];
          while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
          return [...path, start];
        }
        if (cameFrom.has(to)) continue;
        cameFrom.set(to, node);
        following.push(to);
      }
    }
    frontier = following;
  }
  throw new Error(`${start} is on no circle`);
}

/** Every import cycle among `edges`: components of two or more files, or a file importing itself. */
export function importCycles(edges: readonly Edge[]): Cycle[] {
  const next = adjacency(edges);
  return components(next)
    .filter((files) => files.length > 1 || next.get(files[0]!)!.includes(files[0]!))
    .map((files) => {
      const within = new Set(files);
      const seen = new Map<string, string[]>();
      for (const file of files) {
        const circle = shortestCircle(file, next, within).slice(0, -1);
        const first = circle.indexOf([...circle].sort()[0]!);
        const rotated = [...circle.slice(first), ...circle.slice(0, first)];
        seen.set(rotated.join(" -> "), [...rotated, rotated[0]!]);
      }
      return { files, circles: [...seen.keys()].sort().map((k) => seen.get(k)!) };
    })
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

/** One line per circle, under a heading per component: what the test prints when it finds any. */
export function describeCycles(cycles: readonly Cycle[]): string[] {
  return cycles.flatMap((c) => [
    `${c.files.length} file${c.files.length === 1 ? "" : "s"} in one cycle: ${c.files.join(", ")}`,
    ...c.circles.map((circle) => `  ${circle.join(" -> ")}`),
  ]);
}
