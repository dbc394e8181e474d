// Draws the world map of the zones in the browser: the zones' shapes as every map of the site
// draws them (zone-map-shapes.ts), shaded by their offset now. Hover, tap or
// keyboard focus: the zone's name and its time now (its offset from the build's published
// changes, the time from this page's clock); click, Enter or the form: the answer, from
// /coordinates for a point (so the full-resolution boundaries decide, not the simplified
// drawing) or /timezone for a zone. Zoom and pan: zone-map-view.ts; keyboard stops:
// zone-map-keys.ts; offset labels: zone-map-labels.ts; the night side: zone-map-sun.ts.

import { fetchTime, describeTime, type TimeObject } from "./live-time";
import { offsetColor, offsetLabel } from "./zone-map-colors";
import { attachMapView } from "./zone-map-view";
import { attachZoneKeys, type KeyZone } from "./zone-map-keys";
import { placeLabels, type MapLabel } from "./zone-map-labels";
import { nightRing, subsolarPoint } from "./zone-map-sun";
import { drawZones, el, fetchZoneMap, HEIGHT, resizeDots, WIDTH } from "./zone-map-shapes";

type States = Record<string, [number, number, string][]>;

function stateNow(states: States, name: string): { utoff: number; abbr: string } | null {
  const list = states[name];
  if (!list) return null;
  const now = Date.now() / 1000;
  let s = list[0]!;
  for (const x of list) if (x[0] <= now) s = x;
  return { utoff: s[1], abbr: s[2] };
}

const pad = (n: number) => String(n).padStart(2, "0");
function formatOffset(seconds: number): string {
  const a = Math.abs(seconds);
  return `UTC${seconds < 0 ? "-" : "+"}${pad(Math.floor(a / 3600))}:${pad(Math.floor((a % 3600) / 60))}`;
}
function wallTime(utoff: number): string {
  const d = new Date(Date.now() + utoff * 1000);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export async function startZoneMap(root: HTMLElement): Promise<void> {
  const svg = root.querySelector("svg")!;
  const frame = root.querySelector<HTMLElement>(".frame")!;
  const tip = root.querySelector<HTMLElement>(".tip")!;
  const answer = root.querySelector<HTMLElement>("#map-answer")!;
  const form = root.querySelector<HTMLFormElement>("#map-form");
  const lat = root.querySelector<HTMLInputElement>("#map-lat");
  const lng = root.querySelector<HTMLInputElement>("#map-lng");
  const placeForm = root.querySelector<HTMLFormElement>("#map-place-form");
  const place = root.querySelector<HTMLInputElement>("#map-place");
  const [topology, states] = await Promise.all([
    fetchZoneMap(),
    fetch("/zone-offsets.json").then((r) => r.json() as Promise<States>),
  ]);
  const { project, unproject, path, sea, layer, borders, dots, shapes } = drawZones(topology, (zone) => {
    const state = stateNow(states, zone);
    return state ? offsetColor(state.utoff) : "#bbb";
  });
  svg.append(...sea);
  const labelLayer = el("g", { class: "labels", "text-anchor": "middle", "dominant-baseline": "central", fill: "#1a1a1a", stroke: "#ffffff",
    "stroke-opacity": 0.9, "paint-order": "stroke", "stroke-linejoin": "round", "aria-hidden": "true", "pointer-events": "none" });
  const keyZones: (KeyZone & { zone: string })[] = shapes;
  const labels: (MapLabel & { area: number })[] = [];
  for (const { zone, x, y, area, geometry, dot } of shapes) {
    const state = stateNow(states, zone);
    if (dot || !state) continue;
    const [[x0, y0], [x1, y1]] = path.bounds(geometry);
    const text = offsetLabel(state.utoff);
    const t = el("text", { x: x.toFixed(1), y: y.toFixed(1), "data-zone": zone }) as SVGTextElement;
    t.textContent = text;
    labelLayer.append(t);
    labels.push({ element: t, box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, x, y, chars: text.length, area });
  }
  labels.sort((a, b) => b.area - a.area);
  svg.append(layer, borders);
  // The night side now, redrawn each minute; the subsolar point on the element for tests and tools.
  const night = el("path", { class: "night", fill: "#0a1633", "fill-opacity": 0.18, stroke: "#0a1633", "stroke-opacity": 0.5, "stroke-width": 1, "vector-effect": "non-scaling-stroke", "pointer-events": "none" });
  const drawNight = () => {
    const now = Date.now();
    night.setAttribute("d", `M${nightRing(now).map(([lo, la]) => project(lo, la).map((v) => v.toFixed(1)).join(",")).join("L")}Z`);
    const sun = subsolarPoint(now);
    night.dataset.sunLon = sun.lon.toFixed(2);
    night.dataset.sunLat = sun.lat.toFixed(2);
  };
  drawNight();
  setInterval(drawNight, 60_000);
  svg.append(night, dots, labelLayer);
  const focusRing = el("path", { class: "focus-ring", fill: "none", stroke: "#000", "stroke-width": 2.5, "vector-effect": "non-scaling-stroke", "pointer-events": "none", visibility: "hidden" });
  svg.append(focusRing);
  const marker = el("circle", { r: 5, fill: "none", stroke: "#000", "stroke-width": 2, "vector-effect": "non-scaling-stroke", visibility: "hidden" });
  svg.append(marker);

  // Client pixels -> the frame's coordinates -> longitude and latitude.
  const toLonLat = (clientX: number, clientY: number): [number, number] | null => {
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM()!.inverse());
    return unproject(p.x, p.y);
  };
  /** "Europe/London · 14:03 · UTC+00:00 GMT": a zone's name, its wall clock now, its offset. */
  const zoneNow = (zone: string) => {
    const state = stateNow(states, zone);
    return state ? `${zone} · ${wallTime(state.utoff)} · ${formatOffset(state.utoff)} ${state.abbr}` : zone;
  };
  /** The tip beside a point of the screen, inside the frame. */
  const showTip = (zone: string, clientX: number, clientY: number) => {
    tip.textContent = zoneNow(zone);
    tip.hidden = false;
    const box = frame.getBoundingClientRect();
    tip.style.left = `${Math.max(0, Math.min(clientX - box.left + 12, box.width - tip.offsetWidth - 4))}px`;
    tip.style.top = `${Math.max(0, clientY - box.top - 32)}px`;
  };

  // Hover with a mouse or pen; a finger has no hover, so a tap shows the tip (below, with the click).
  svg.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch" || e.buttons !== 0) return;
    const zone = (e.target as Element).getAttribute("data-zone");
    if (!zone) return void (tip.hidden = true);
    showTip(zone, e.clientX, e.clientY);
  });
  svg.addEventListener("pointerleave", (e) => {
    if (e.pointerType !== "touch") tip.hidden = true;
  });

  const view = attachMapView(svg, WIDTH, HEIGHT, (zoom) => {
    placeLabels(labels, WIDTH / zoom / svg.getBoundingClientRect().width);
    resizeDots(dots, zoom);
  });
  // Labels fit the frame's size on screen: placed again when it changes (a phone turned).
  new ResizeObserver(() => view.zoom(1)).observe(svg);
  for (const [id, act] of [["map-zoom-in", () => view.zoom(2)], ["map-zoom-out", () => view.zoom(0.5)], ["map-reset", () => view.reset()]] as const) {
    root.querySelector<HTMLButtonElement>(`#${id}`)!.addEventListener("click", act);
  }

  const showAnswer = (lead: (string | Node)[], t: TimeObject, others: string[]) => {
    root.dataset.answer = "done";
    root.dataset.timezone = t.timezone;
    root.dataset.datetime = t.datetime;
    answer.replaceChildren(
      ...lead,
      Object.assign(document.createElement("a"), { href: `/zones/${t.timezone}/`, textContent: t.timezone }),
      // The zone's name once (the link), then its offset and abbreviation.
      `${describeTime(t).slice(t.timezone.length)} · ${t.datetime.slice(0, 19).replace("T", " ")}`,
      others.length > 0 ? ` · the data also gives ${others.join(", ")}` : "",
    );
  };
  let asked = 0;
  const ask = async (latitude: number, longitude: number) => {
    const id = ++asked;
    const la = latitude.toFixed(4), lo = longitude.toFixed(4);
    root.dataset.lat = la;
    root.dataset.lng = lo;
    root.dataset.answer = "asking";
    const xy = project(Number(lo), Number(la));
    marker.setAttribute("cx", xy[0].toFixed(1));
    marker.setAttribute("cy", xy[1].toFixed(1));
    marker.setAttribute("visibility", "visible");
    answer.textContent = `Asking /coordinates/${la},${lo}…`;
    const r = await fetchTime(`/coordinates/${la},${lo}`);
    if (id !== asked) return;
    if ("error" in r) {
      root.dataset.answer = "error";
      delete root.dataset.timezone;
      answer.textContent = r.error;
      return;
    }
    showAnswer([`${la}, ${lo}: `], r.time, r.others);
  };
  // A zone chosen by keyboard: its own time, from /timezone (no point to ask about).
  const askZone = async (zone: string) => {
    const id = ++asked;
    root.dataset.answer = "asking";
    marker.setAttribute("visibility", "hidden");
    answer.textContent = `Asking /timezone/${zone}…`;
    const r = await fetchTime(`/timezone/${zone}`);
    if (id !== asked) return;
    if ("error" in r) {
      root.dataset.answer = "error";
      answer.textContent = r.error;
      return;
    }
    showAnswer([], r.time, []);
  };
  let clicks = 0;
  svg.addEventListener("click", (e) => {
    root.dataset.clicks = String(++clicks);
    const zone = (e.target as Element).getAttribute("data-zone");
    if (zone) showTip(zone, e.clientX, e.clientY);
    const ll = toLonLat(e.clientX, e.clientY);
    if (ll) void ask(ll[1], ll[0]);
    else root.dataset.answer = "off-map";
  });

  attachZoneKeys(svg, keyZones, (z) => {
    const [name, time, offset] = zoneNow((z as (typeof keyZones)[number]).zone).split(" · ");
    return time ? `${name}, ${time} local time, ${offset}` : name!;
  }, (z) => {
    view.reveal(z.x, z.y);
    const zone = (z as (typeof keyZones)[number]).zone;
    focusRing.setAttribute("d", z.element.tagName === "circle" ? `M${z.x - 4},${z.y}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0` : z.element.getAttribute("d")!);
    focusRing.setAttribute("visibility", "visible");
    const p = new DOMPoint(z.x, z.y).matrixTransform(svg.getScreenCTM()!);
    showTip(zone, p.x, p.y);
  }, (z) => void askZone((z as (typeof keyZones)[number]).zone));
  svg.addEventListener("focusout", () => {
    focusRing.setAttribute("visibility", "hidden");
    tip.hidden = true;
  });

  // The forms under the map, where the page has them (the home page has its own).
  if (form && lat && lng && placeForm && place) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const la = Number(lat.value.trim()), lo = Number(lng.value.trim());
      if (!Number.isFinite(la) || !Number.isFinite(lo) || lat.value.trim() === "" || lng.value.trim() === "") {
        answer.textContent = "Give a latitude (-90..90) and a longitude (-180..180) as decimal degrees.";
        return;
      }
      void ask(la, lo);
    });
    // A place's name: the best /places match, then the same question as a click at its point
    // (so the exact polygon decides, as it did when the build gave the place its zone).
    placeForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const q = place.value.trim();
      if (q === "") return;
      answer.textContent = `Looking for ${q}…`;
      void fetch(`/places?q=${encodeURIComponent(q)}&limit=1`)
        .then((r) => (r.ok ? (r.json() as Promise<{ latitude: number; longitude: number }[]>) : []))
        .then((found) => {
          if (found.length === 0) {
            answer.textContent = `No place called ${q} is known here.`;
            return;
          }
          lat.value = String(found[0].latitude);
          lng.value = String(found[0].longitude);
          void ask(found[0].latitude, found[0].longitude);
        }, () => (answer.textContent = "The place search did not answer; try again."));
    });
  }
  // For tests and tools: where a point is drawn, in client pixels.
  (root as HTMLElement & { project?: unknown }).project = (lon: number, latitude: number) => {
    const p = project(lon, latitude);
    const m = svg.getScreenCTM()!;
    const q = new DOMPoint(p[0], p[1]).matrixTransform(m);
    return [q.x, q.y];
  };
  root.dataset.state = "ready";
}
