// Puts each chart's "now" line (drawn at the build's now) at the reader's now: a page
// built months ago still marks the present. The line's group carries the time window and
// the x range it maps to.
export function placeNowLines(now = Date.now() / 1000): void {
  for (const g of document.querySelectorAll<SVGGElement>("svg g.now")) {
    const from = Number(g.dataset.from), to = Number(g.dataset.to), x0 = Number(g.dataset.x0), x1 = Number(g.dataset.x1);
    const t = Math.min(Math.max(now, from), to);
    g.setAttribute("transform", `translate(${(x0 + ((t - from) / (to - from)) * (x1 - x0)).toFixed(1)} 0)`);
  }
}
