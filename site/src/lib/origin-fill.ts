// Runs on every page: puts the page's own origin into each <span data-origin> (see
// origin.ts), so the snippets a reader copies name the service that served them.
export function fillOrigins(root: ParentNode = document): void {
  for (const span of root.querySelectorAll<HTMLElement>("[data-origin]")) {
    span.textContent = span.dataset.origin === "host" ? location.host : location.origin;
  }
}
