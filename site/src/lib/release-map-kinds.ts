// What a release did to a name, as its page's map shows it: shared by the page (legend and
// data, at build) and the map's code in the browser (fills and accessible names).

/** future: its present or future changed; past: only its past; added: the name is new in the release. */
export type ChangeKind = "future" | "added" | "past";

/** Strongest first: a shape several names share takes the first kind any of them has. */
export const KINDS: readonly ChangeKind[] = ["future", "added", "past"];

/** Okabe and Ito's colour-blind-safe hues, apart from each other and from the grey of unchanged zones and the sea's blue. */
export const KIND_COLOR: Record<ChangeKind, string> = { future: "#d55e00", added: "#009e73", past: "#8f6bb8" };
export const UNCHANGED_COLOR = "#e6e6e6";

export const KIND_TEXT: Record<ChangeKind, string> = { future: "present or future changed", added: "name added", past: "past changed" };

/**
 * The page's data for its map: per zone drawn on the map, the names it stands for and what
 * the release did to each (the zone's own name first, then links and names whose area it
 * covers today); the names with no area on the map.
 */
export interface ReleaseMapData {
  release: string;
  shapes: Record<string, [name: string, kind: ChangeKind][]>;
  offMap: [name: string, kind: ChangeKind][];
}

/** The kind a shape is filled with: the strongest of its names'. */
export const shapeKind = (names: readonly [string, ChangeKind][]): ChangeKind => KINDS.find((k) => names.some((n) => n[1] === k))!;

/** "America/Vancouver: present or future changed; Canada/Pacific: present or future changed", and the zone drawn when it is not one of them. */
export function shapeLabel(zone: string, names: readonly [string, ChangeKind][]): string {
  const list = names.map(([name, kind]) => `${name}: ${KIND_TEXT[kind]}`).join("; ");
  return names.some((n) => n[0] === zone) ? list : `${list} (drawn as ${zone})`;
}
