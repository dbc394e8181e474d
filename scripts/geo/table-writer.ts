// The growing sections of geo.bin while the build fills them (see server/formats/geo-format.ts
// for what each holds), and the quad arithmetic the build shares with the runtime's descent.

import { CHILD_VALUE_MASK } from "../../server/formats/geo-format.ts";

/** A quad as the runtime's descent bounds it, in degrees. */
export interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Child q (0..3 = a NE, b NW, c SW, d SE) of a quad, with the same arithmetic as geo-tz's
 *  find and server/geo/geo-locator.ts: a point goes north when lat >= the midpoint, east
 *  when lon >= it. */
export function quadrant(r: Rect, q: number): Rect {
  const midLat = (r.top + r.bottom) / 2;
  const midLon = (r.left + r.right) / 2;
  switch (q) {
    case 0: return { top: r.top, bottom: midLat, left: midLon, right: r.right };
    case 1: return { top: r.top, bottom: midLat, left: r.left, right: midLon };
    case 2: return { top: midLat, bottom: r.bottom, left: r.left, right: midLon };
    default: return { top: midLat, bottom: r.bottom, left: midLon, right: r.right };
  }
}

export class GrowableInts<T extends Int16Array | Int32Array | Uint32Array> {
  length = 0;
  private array: T;
  private readonly make: (n: number) => T;

  constructor(make: (n: number) => T) {
    this.make = make;
    this.array = make(1 << 16);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }

  set(index: number, value: number): void {
    this.array[index] = value;
  }

  toArray(): T {
    return this.array.slice(0, this.length) as T;
  }
}

export class TableWriter {
  readonly nodes = new GrowableInts((n) => new Uint32Array(n));
  readonly cells = new GrowableInts((n) => new Uint32Array(n));
  readonly stream = new GrowableInts((n) => new Int16Array(n));

  /** A new node, its children to be set; nodes are numbered parent before child. */
  allocNode(): number {
    const index = this.nodes.length / 4;
    if (index > CHILD_VALUE_MASK) throw new Error("geo.bin: too many quadtree nodes");
    for (let q = 0; q < 4; q++) this.nodes.push(0);
    return index;
  }

  get cellCount(): number {
    return this.cells.length / 2;
  }
}

export const childWord = (kind: number, value: number): number => ((kind << 30) | value) >>> 0;
