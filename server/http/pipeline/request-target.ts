// The path and query of a request, taken from req.url without `new URL()`: Bun makes
// req.url relative when the Host header is missing or garbage, and URL parsing would
// throw or, worse, let the Host header shape what we read.

export interface RequestTarget {
  /** The raw path, still percent-encoded, always starting with "/". */
  path: string;
  /** The raw query string without "?", possibly empty. */
  query: string;
}

export function requestTarget(url: string): RequestTarget {
  let start = 0;
  if (url.charCodeAt(0) !== 47 /* / */) {
    // The common case first: Bun's absolute URL built from a sane Host header.
    const scheme = url.startsWith("http://") ? 4 : url.indexOf("://");
    if (scheme >= 0) start = afterAuthority(url, scheme + 3);
  }
  const rest = url.slice(start);
  const q = rest.indexOf("?");
  const path = q >= 0 ? rest.slice(0, q) : rest;
  return { path: path.startsWith("/") ? path : `/${path}`, query: q >= 0 ? rest.slice(q + 1) : "" };
}

/** Where the path (or, without one, the query) starts after the authority that begins at `from`. */
function afterAuthority(url: string, from: number): number {
  const slash = url.indexOf("/", from);
  const question = url.indexOf("?", from);
  return slash >= 0 && (question < 0 || slash < question) ? slash : question >= 0 ? question : url.length;
}

/** decodeURIComponent that answers null instead of throwing on a bad escape. */
export function safeDecode(text: string): string | null {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
