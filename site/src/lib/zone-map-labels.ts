// The map's offset labels ("+1", "−3", "+5:30"), one per zone, shown only where they fit on
// screen at the current zoom: a zone drawn wider and taller than its label gets it, bigger
// zones first, and a label never covers another. Zoomed in, the smaller zones get theirs.
// Text keeps one screen size (12 px) at any zoom; a white halo under it holds its contrast
// over any shade and over the night side.

export interface MapLabel {
  element: SVGTextElement;
  /** The zone's drawn box and the label's anchor, in frame units. */
  box: { x: number; y: number; width: number; height: number };
  x: number;
  y: number;
  chars: number;
}

const FONT_PX = 12;

/** Shows the labels that fit; `unitsPerPixel` is frame units per screen pixel now. */
export function placeLabels(labels: MapLabel[], unitsPerPixel: number): void {
  const size = FONT_PX * unitsPerPixel;
  const placed: { x0: number; x1: number; y0: number; y1: number }[] = [];
  for (const l of labels) {
    const w = l.chars * size * 0.62, h = size;
    const fits = l.box.width >= w + 2 * unitsPerPixel && l.box.height >= h;
    const r = { x0: l.x - w / 2, x1: l.x + w / 2, y0: l.y - h / 2, y1: l.y + h / 2 };
    const free = fits && placed.every((p) => r.x1 < p.x0 || r.x0 > p.x1 || r.y1 < p.y0 || r.y0 > p.y1);
    l.element.setAttribute("visibility", free ? "visible" : "hidden");
    if (!free) continue;
    placed.push(r);
    l.element.setAttribute("font-size", size.toFixed(2));
    l.element.setAttribute("stroke-width", (3 * unitsPerPixel).toFixed(2));
  }
}
