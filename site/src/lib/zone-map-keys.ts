// The zones as keyboard stops: the map is one Tab stop (a roving tabindex: one zone at a time
// has tabindex 0), the arrows move to the nearest zone in that direction, Home to the first,
// Enter or Space asks for the zone's time, as a click does; keyboard focus brings the zone into
// view and shows its tip. Each zone's accessible name is
// its name, offset and local time, renewed when it takes focus so the time read out is now.

export interface KeyZone {
  element: SVGElement;
  /** Where the zone is drawn (frame units): its centroid, or its dot. */
  x: number;
  y: number;
}

const DIRECTIONS: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The nearest zone from `from` within 60 degrees of the direction (dx, dy), sideways distance weighing double. */
function nearest(zones: KeyZone[], from: KeyZone, [dx, dy]: [number, number]): KeyZone | null {
  let best: KeyZone | null = null, bestScore = Infinity;
  for (const z of zones) {
    if (z === from) continue;
    const along = (z.x - from.x) * dx + (z.y - from.y) * dy;
    const across = Math.abs((z.x - from.x) * dy - (z.y - from.y) * dx);
    if (along <= 0 || across > along * 1.8) continue;
    const score = along + 2 * across;
    if (score < bestScore) [best, bestScore] = [z, score];
  }
  return best;
}

export function attachZoneKeys(svg: SVGSVGElement, zones: KeyZone[], name: (z: KeyZone) => string,
  onFocus: (z: KeyZone) => void, onChoose: (z: KeyZone) => void): void {
  const byElement = new Map(zones.map((z) => [z.element, z] as const));
  let current = zones[0]!;
  for (const z of zones) {
    z.element.setAttribute("tabindex", z === current ? "0" : "-1");
    // A stop that says what it is (a release map's link) keeps its role.
    if (!z.element.hasAttribute("role")) z.element.setAttribute("role", "button");
    z.element.setAttribute("aria-label", name(z));
  }
  const move = (to: KeyZone) => {
    current.element.setAttribute("tabindex", "-1");
    current = to;
    to.element.setAttribute("tabindex", "0");
    to.element.focus();
  };
  svg.addEventListener("focusin", (e) => {
    const z = byElement.get(e.target as SVGElement);
    if (!z) return;
    if (z !== current) move(z);
    z.element.setAttribute("aria-label", name(z));
    // A zone pressed with the mouse takes focus too; only the keyboard's focus moves the view.
    if (z.element.matches(":focus-visible")) onFocus(z);
  });
  svg.addEventListener("keydown", (e) => {
    const z = byElement.get(e.target as SVGElement);
    if (!z || e.defaultPrevented || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onChoose(z);
      return;
    }
    const to = e.key === "Home" ? zones[0]! : e.key === "End" ? zones[zones.length - 1]! : DIRECTIONS[e.key] ? nearest(zones, z, DIRECTIONS[e.key]!) : undefined;
    if (to === undefined) return;
    e.preventDefault();
    if (to) move(to);
  });
}
