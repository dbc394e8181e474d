// The Timezones page's search, ranked as a person means the words: a place's own name
// first, then a country, then a zone's name or its other names, then anything that merely
// contains the words. Accents, case and separators do not matter: text is folded as the
// API folds it for /timezone?q= and /places (server/core/search-fold.ts, restated here
// because the site never imports the server).

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[\s_\-\u2010-\u2015.,'\u2019()/:]+/gu;

/** NFD without combining marks, lower case, separators as one space, trimmed: "São_Paulo" -> "sao paulo". */
export const fold = (text: string) => text.normalize("NFD").replace(MARKS, "").toLowerCase().replace(SEPARATORS, " ").trim();

/** What a row of the table is searched by, each part already folded. */
export interface SearchEntry {
  /** The served name, e.g. "America/Sao_Paulo". */
  name: string;
  /** Whether the name is a Zone (not a Link): on a tie, the zone comes first. */
  canonical: boolean;
  /** The name's place, its last part: "sao paulo". */
  city: string;
  /** The zone's major cities: ["sao paulo", "rio de janeiro", ...]. */
  cities: string[];
  /** Its countries: ["brazil"]. */
  countries: string[];
  /** The name itself first, then the other names of its zone: ["america sao paulo", "brazil east"]. */
  names: string[];
}

/** How well `entry` matches the folded query `q`: 0 best, 6 no match. */
export function rank(entry: SearchEntry, q: string): number {
  const wordStart = (text: string) => text.startsWith(q) || text.includes(` ${q}`);
  // The name itself ("GMT", "Asia/Kolkata") or its place ("kolkata").
  if (entry.names[0] === q || entry.city === q) return 0;
  if (entry.cities.includes(q)) return 1;
  if (entry.countries.includes(q)) return 2;
  if (wordStart(entry.city) || entry.cities.some(wordStart)) return 3;
  if (entry.names.some((n) => n.includes(q))) return 4;
  if (entry.countries.some((c) => c.includes(q)) || entry.cities.some((c) => c.includes(q))) return 5;
  return 6;
}

/** The entries matching `query`, best first (then zones before links, then A-Z); every entry, A-Z, for no query. */
export function search(entries: readonly SearchEntry[], query: string): SearchEntry[] {
  const q = fold(query);
  if (q === "") return [...entries];
  return entries
    .map((entry) => ({ entry, score: rank(entry, q) }))
    .filter((r) => r.score < 6)
    .sort((a, b) => a.score - b.score || Number(b.entry.canonical) - Number(a.entry.canonical) || a.entry.name.localeCompare(b.entry.name))
    .map((r) => r.entry);
}
