// Zoom and pan for the map: the SVG's viewBox is the view. Mouse wheel zooms about the
// pointer, a drag pans, two fingers pinch and pan, the keyboard zooms with + and − and pans
// with Shift and the arrows (plain arrows move between zones, zone-map-keys.ts), and buttons
// do the same for whoever prefers them. A drag is not a click: the click after one is
// swallowed, so panning never asks /coordinates.

export interface MapView {
  /** Zoom by `factor` about the frame point (x, y) (the centre when omitted). */
  zoom(factor: number, x?: number, y?: number): void;
  /** Pan by (dx, dy) in frame units at the current zoom. */
  pan(dx: number, dy: number): void;
  /** Centre the view on the frame point (x, y) if it is out of view. */
  reveal(x: number, y: number): void;
  reset(): void;
}

const MAX_ZOOM = 16;
/** Pointer travel (screen pixels) after which a press is a drag, not a click. */
const DRAG_PIXELS = 5;

/** `onChange` hears the zoom (1 = the whole world) after every change of view. */
export function attachMapView(svg: SVGSVGElement, width: number, height: number, onChange: (zoom: number) => void): MapView {
  let view = { x: 0, y: 0, w: width };
  const h = () => (view.w * height) / width;
  const apply = () => {
    view.w = Math.min(width, Math.max(width / MAX_ZOOM, view.w));
    view.x = Math.min(width - view.w, Math.max(0, view.x));
    view.y = Math.min(height - h(), Math.max(0, view.y));
    svg.setAttribute("viewBox", `${view.x.toFixed(2)} ${view.y.toFixed(2)} ${view.w.toFixed(2)} ${h().toFixed(2)}`);
    const zoom = width / view.w;
    svg.dataset.zoom = zoom.toFixed(3);
    // Zoomed in, every touch gesture is the map's; at full view one finger still scrolls the page.
    svg.classList.toggle("zoomed", zoom > 1.001);
    onChange(zoom);
  };
  const zoom = (factor: number, x = view.x + view.w / 2, y = view.y + h() / 2) => {
    const w = Math.min(width, Math.max(width / MAX_ZOOM, view.w / factor));
    const k = w / view.w;
    view = { x: x - (x - view.x) * k, y: y - (y - view.y) * k, w };
    apply();
  };
  const pan = (dx: number, dy: number) => {
    view.x += dx;
    view.y += dy;
    apply();
  };
  /** Screen pixel -> frame units, for the current view. */
  const toFrame = (clientX: number, clientY: number) => {
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM()!.inverse());
    return { x: p.x, y: p.y };
  };
  const unitsPerPixel = () => view.w / svg.getBoundingClientRect().width;

  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const p = toFrame(e.clientX, e.clientY);
    zoom(Math.exp(-e.deltaY / 300), p.x, p.y);
  }, { passive: false });

  // Pointers down now, by id: one pans, two pinch.
  const down = new Map<number, { x: number; y: number }>();
  let travelled = 0;
  svg.addEventListener("pointerdown", (e) => {
    down.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (down.size === 1) travelled = 0;
  });
  svg.addEventListener("pointermove", (e) => {
    const last = down.get(e.pointerId);
    if (!last) return;
    if (down.size === 1) {
      const dx = e.clientX - last.x, dy = e.clientY - last.y;
      travelled += Math.hypot(dx, dy);
      if (travelled > DRAG_PIXELS) {
        // Captured only once it is a drag: a plain click keeps its target (the zone).
        if (!svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId);
        pan(-dx * unitsPerPixel(), -dy * unitsPerPixel());
      }
    } else if (down.size === 2) {
      const [a, b] = [...down.entries()].map(([id, p]) => (id === e.pointerId ? { x: e.clientX, y: e.clientY } : p));
      const [a0, b0] = [...down.values()];
      const before = Math.hypot(a0!.x - b0!.x, a0!.y - b0!.y), after = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      const mid0 = { x: (a0!.x + b0!.x) / 2, y: (a0!.y + b0!.y) / 2 }, mid = { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 };
      travelled += DRAG_PIXELS + 1;
      pan(-(mid.x - mid0.x) * unitsPerPixel(), -(mid.y - mid0.y) * unitsPerPixel());
      if (before > 0 && after > 0) {
        const p = toFrame(mid.x, mid.y);
        zoom(after / before, p.x, p.y);
      }
    }
    down.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const up = (e: PointerEvent) => void down.delete(e.pointerId);
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // Capture phase: the map's own click handlers never see the click that ends a drag.
  svg.addEventListener("click", (e) => {
    if (travelled > DRAG_PIXELS) {
      e.stopImmediatePropagation();
      travelled = 0;
    }
  }, true);

  svg.addEventListener("keydown", (e) => {
    const step = view.w / 8;
    const keys: Record<string, () => void> = {
      "+": () => zoom(1.5), "=": () => zoom(1.5), "-": () => zoom(1 / 1.5), "0": () => reset(),
    };
    if (e.shiftKey) Object.assign(keys, {
      ArrowLeft: () => pan(-step, 0), ArrowRight: () => pan(step, 0), ArrowUp: () => pan(0, -step), ArrowDown: () => pan(0, step),
    });
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    e.stopPropagation();
    act();
  });

  const reset = () => {
    view = { x: 0, y: 0, w: width };
    apply();
  };
  const reveal = (x: number, y: number) => {
    const margin = view.w / 10;
    if (x < view.x + margin || x > view.x + view.w - margin || y < view.y + margin || y > view.y + h() - margin) {
      view.x = x - view.w / 2;
      view.y = y - h() / 2;
      apply();
    }
  };
  apply();
  return { zoom, pan, reveal, reset };
}
