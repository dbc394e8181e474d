// Draws a release's changed zones in the browser: the map's shapes (zone-map-shapes.ts), each
// zone the release changed filled by what it changed and wrapped in a link to its zone page,
// named for assistive technology with every name it stands for; the rest grey. Keyboard: the
// changed zones are the map's stops (zone-map-keys.ts), Enter follows the link; zoom and pan
// as on the live map (zone-map-view.ts).

import { attachMapView } from "./zone-map-view";
import { attachZoneKeys, type KeyZone } from "./zone-map-keys";
import { drawZones, el, fetchZoneMap, HEIGHT, resizeDots, WIDTH } from "./zone-map-shapes";
import { KIND_COLOR, UNCHANGED_COLOR, shapeKind, shapeLabel, type ReleaseMapData } from "./release-map-kinds";

export async function startReleaseMap(root: HTMLElement): Promise<void> {
  const data = JSON.parse(root.querySelector("script[type='application/json']")!.textContent!) as ReleaseMapData;
  const svg = root.querySelector("svg")!;
  const frame = root.querySelector<HTMLElement>(".frame")!;
  const tip = root.querySelector<HTMLElement>(".tip")!;
  const { sea, layer, borders, dots, shapes } = drawZones(await fetchZoneMap(), (zone) => {
    const names = data.shapes[zone];
    return names ? KIND_COLOR[shapeKind(names)] : UNCHANGED_COLOR;
  });
  const focusRing = el("path", { class: "focus-ring", fill: "none", stroke: "#000", "stroke-width": 2.5, "vector-effect": "non-scaling-stroke", "pointer-events": "none", visibility: "hidden" });
  svg.append(...sea, layer, borders, dots, focusRing);

  const labels = new Map<string, string>();
  const keys: (KeyZone & { zone: string; href: string })[] = [];
  for (const shape of shapes) {
    const names = data.shapes[shape.zone];
    if (!names) continue;
    const label = shapeLabel(shape.zone, names);
    labels.set(shape.zone, label);
    const href = `/zones/${names[0]![0]}/`;
    // role=link: the keys module makes stops buttons unless they say what they are.
    const link = el("a", { href, role: "link", "data-kind": shapeKind(names), "data-names": names.map((n) => n[0]).join(" ") });
    shape.element.replaceWith(link);
    link.append(shape.element);
    // Outlined, so a changed zone stands out from a neighbour of a near colour.
    shape.element.setAttribute("stroke", "#222");
    shape.element.setAttribute("stroke-width", "0.8");
    shape.element.setAttribute("vector-effect", "non-scaling-stroke");
    keys.push({ element: link, x: shape.x, y: shape.y, zone: shape.zone, href });
  }

  const showTip = (text: string, clientX: number, clientY: number) => {
    tip.textContent = text;
    tip.hidden = false;
    const box = frame.getBoundingClientRect();
    tip.style.left = `${Math.max(0, Math.min(clientX - box.left + 12, box.width - tip.offsetWidth - 4))}px`;
    tip.style.top = `${Math.max(0, clientY - box.top - tip.offsetHeight - 8)}px`;
  };
  svg.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch" || e.buttons !== 0) return;
    const zone = (e.target as Element).getAttribute("data-zone");
    if (!zone) return void (tip.hidden = true);
    showTip(labels.get(zone) ?? `${zone}: unchanged`, e.clientX, e.clientY);
  });
  svg.addEventListener("pointerleave", () => void (tip.hidden = true));

  const view = attachMapView(svg, WIDTH, HEIGHT, (zoom) => resizeDots(dots, zoom));
  const zoomBy: Record<string, () => void> = { in: () => view.zoom(2), out: () => view.zoom(0.5), reset: () => view.reset() };
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-zoom]")) button.addEventListener("click", zoomBy[button.dataset.zoom!]!);

  if (keys.length > 0) {
    attachZoneKeys(svg, keys, (z) => labels.get((z as (typeof keys)[number]).zone)!, (z) => {
      view.reveal(z.x, z.y);
      const shape = z.element.firstElementChild!;
      focusRing.setAttribute("d", shape.tagName === "circle" ? `M${z.x - 4},${z.y}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0` : shape.getAttribute("d")!);
      focusRing.setAttribute("visibility", "visible");
      const p = new DOMPoint(z.x, z.y).matrixTransform(svg.getScreenCTM()!);
      showTip(labels.get((z as (typeof keys)[number]).zone)!, p.x, p.y);
    }, (z) => location.assign((z as (typeof keys)[number]).href));
  }
  svg.addEventListener("focusout", () => {
    focusRing.setAttribute("visibility", "hidden");
    tip.hidden = true;
  });
  root.dataset.state = "ready";
}
