// What changed in a tzdb release, in one line, from its NEWS entry (GET /tzdb lists it).

/** NEWS's one line: the first line under "Briefly:", else the entry's first paragraph of text. */
export function summaryOf(entry: string): string {
  const lines = entry.split("\n").slice(1);
  const briefly = lines.findIndex((l) => /^\s+Briefly:/.test(l));
  const sameLine = briefly >= 0 ? /Briefly:\s*(\S.*)$/.exec(lines[briefly]!)?.[1] : undefined;
  if (sameLine) return sameLine.trim();
  if (briefly >= 0) {
    const first = lines.slice(briefly + 1).find((l) => l.trim() !== "");
    if (first) return first.trim();
  }
  // Older entries: "  * file (Zone): what changed." or headings, then indented paragraphs.
  const paragraphs = lines.join("\n").split(/\n\s*\n/).map((p) => p.trim())
    // Headings ("Changes to future timestamps", "Compatibility note:") are one line, no sentence.
    .filter((p) => p !== "" && (p.includes("\n") || /[.!?]$/.test(p)));
  const text = (paragraphs[0] ?? "").replace(/^\*\s*/, "").replace(/\s+/g, " ").replace(/\s*\(Thanks[^)]*\)\s*/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
