// The home page's "Your clock" panel: the guide's own clockOffset (clock-offset.js) over
// eight /sync round trips, the verdict in words and the samples as a small chart. The
// visitor's clock is Date.now(), what their page and OS show; the least-delay sample wins.

import { clockOffset } from "./clock-offset.js";

export interface Sample { offset: number; delay: number }
export interface Measurement { offset: number; bound: number; samples: Sample[] }

/** Seconds for the verdict: the bound rounded up, so that the rounded offset ± it still holds the truth. */
function seconds(offsetMs: number, boundMs: number) {
  const bound = Math.max(0.01, Math.ceil((boundMs / 1000 + 0.005) * 100) / 100);
  return { ahead: -offsetMs / 1000, bound };
}

/** "your clock is 0.27 s ahead (± 0.01 s)": offset is what to add to the visitor's clock to read ours. */
export function describeOffset(offsetMs: number, boundMs: number): string {
  const { ahead, bound } = seconds(offsetMs, boundMs);
  const within = `(± ${bound.toFixed(2)} s)`;
  if (Math.abs(ahead) <= bound) return `your clock is right ${within}`;
  return `your clock is ${Math.abs(ahead).toFixed(2)} s ${ahead > 0 ? "ahead" : "behind"} ${within}`;
}

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 80;

function el(name: string, attributes: Record<string, string | number>, parent: Element): SVGElement {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

/** Each sample's offset from the winner's, with its ± delay/2 as a bar; the winner filled. */
export function drawSamples(svg: SVGSVGElement, m: Measurement): void {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const best = m.samples.reduce((a, b) => (b.delay < a.delay ? b : a));
  const range = Math.max(1, ...m.samples.map((s) => Math.abs(s.offset - best.offset) + s.delay / 2));
  const y = (ms: number) => H / 2 - ((ms - best.offset) / range) * (H / 2 - 6);
  el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "currentColor", "stroke-opacity": 0.3, "stroke-dasharray": "3 3" }, svg);
  m.samples.forEach((s, i) => {
    const x = 16 + (i * (W - 32)) / Math.max(1, m.samples.length - 1);
    const winner = s === best;
    const g = el("g", { "data-sample": i, "data-best": String(winner) }, svg);
    el("title", {}, g).textContent = `round trip ${i + 1}: offset ${s.offset.toFixed(1)} ms, delay ${s.delay.toFixed(1)} ms${winner ? " (least delay: the estimate)" : ""}`;
    el("line", { x1: x, x2: x, y1: y(s.offset - s.delay / 2), y2: y(s.offset + s.delay / 2), stroke: "currentColor", "stroke-opacity": 0.5 }, g);
    el("circle", { cx: x, cy: y(s.offset), r: 4, fill: winner ? "currentColor" : "none", stroke: "currentColor" }, g);
  });
}

/** Measures and shows the result in `panel` ([data-role=verdict], [data-role=chart], [data-role=meta]). */
export async function runPanel(panel: HTMLElement): Promise<void> {
  const verdict = panel.querySelector<HTMLElement>("[data-role=verdict]")!;
  const meta = panel.querySelector<HTMLElement>("[data-role=meta]")!;
  const chart = panel.querySelector<SVGSVGElement>("[data-role=chart]")!;
  panel.dataset.state = "measuring";
  verdict.textContent = "Measuring…";
  try {
    const m = (await clockOffset("", 8)) as Measurement;
    panel.dataset.offsetMs = String(m.offset);
    panel.dataset.boundMs = String(m.bound);
    verdict.textContent = describeOffset(m.offset, m.bound);
    const best = m.samples.reduce((a, b) => (b.delay < a.delay ? b : a));
    meta.textContent = `${m.samples.length} round trips to /sync; the fastest (${best.delay.toFixed(1)} ms) gives the estimate, within half its delay.`;
    drawSamples(chart, m);
    panel.dataset.state = "done";
  } catch (e) {
    verdict.textContent = "Could not measure your clock.";
    meta.textContent = String(e instanceof Error ? e.message : e);
    panel.dataset.state = "error";
  }
}
