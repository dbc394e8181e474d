// Whether a request asks for HTML: its Accept header names text/html with a q above 0.
// Read only for an unknown path, to choose between the website's 404 page (a browser)
// and the JSON error (curl, fetch(), API clients: no Accept, */* or application/json).
// A wildcard alone does not count: curl and fetch() send */* and want the API's shape.

export function acceptsHtml(accept: string | null): boolean {
  if (accept === null) return false;
  for (const entry of accept.split(",")) {
    const semicolon = entry.indexOf(";");
    const range = (semicolon < 0 ? entry : entry.slice(0, semicolon)).trim().toLowerCase();
    if (range !== "text/html") continue;
    return semicolon < 0 || qualityOf(entry.slice(semicolon + 1)) > 0;
  }
  return false;
}

/**
 * Whether a request refuses HTML: its Accept names media ranges and none that HTML could be
 * (text/html, text/*, or any type) with a q above 0: `application/json`, `text/xml`. Then even the
 * root's home page is not what it asked for (an API client at `/` gets JSON, never the site).
 */
export function refusesHtml(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return false;
  for (const entry of accept.split(",")) {
    const semicolon = entry.indexOf(";");
    const range = (semicolon < 0 ? entry : entry.slice(0, semicolon)).trim().toLowerCase();
    if (range !== "text/html" && range !== "text/*" && range !== "*/*") continue;
    if (semicolon < 0 || qualityOf(entry.slice(semicolon + 1)) > 0) return false;
  }
  return true;
}

/** The `q` of a media range's parameters (`q=0.5; level=1`), 1 without one. */
function qualityOf(parameters: string): number {
  for (const parameter of parameters.split(";")) {
    const eq = parameter.indexOf("=");
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== "q") continue;
    const q = Number(parameter.slice(eq + 1).trim());
    return Number.isFinite(q) ? q : 0;
  }
  return 1;
}
