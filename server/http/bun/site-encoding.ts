// Which of a site file's stored forms to send: the build wrote a Brotli and a gzip copy
// beside each text file (scripts/site/precompress.ts); the client's Accept-Encoding picks
// one, by RFC 9110 §12.5.3: a coding with q=0 is refused, `*` stands for any coding not
// named, and among those accepted the highest q wins (Brotli on a tie: smaller).

export type SiteEncoding = "br" | "gzip";

/** The q-value `accept` gives each coding it names ("*" included), lower-cased. */
function qualities(accept: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    out.set(coding.trim(), q);
  }
  return out;
}

/** The coding to answer with, among `available`, or null for the file as it is. */
export function chooseSiteEncoding(accept: string | null, available: readonly SiteEncoding[]): SiteEncoding | null {
  if (!accept || available.length === 0) return null;
  const q = qualities(accept);
  const wildcard = q.get("*") ?? 0;
  let best: SiteEncoding | null = null, bestQ = 0;
  for (const coding of (["br", "gzip"] as const).filter((c) => available.includes(c))) {
    const value = q.get(coding) ?? (coding === "gzip" ? q.get("x-gzip") : undefined) ?? wildcard;
    if (value > bestQ) [best, bestQ] = [coding, value];
  }
  return best;
}
