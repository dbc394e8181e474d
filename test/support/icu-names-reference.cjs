// Run by Node (not Bun): Node 20 carries ICU 78.2 with CLDR 48.0, the reference for our
// names. Reads {names, locales, instants} as JSON on stdin and writes one JSON line per
// (name, locale): [name, locale, [[offsetSeconds, long, longGeneric] per instant]], or
// [name, null] when ICU does not know the name.
const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const out = [`${JSON.stringify({ icu: process.versions.icu, cldr: process.versions.cldr, tz: process.versions.tz })}`];
const part = (f, d) => f.formatToParts(d).find((p) => p.type === "timeZoneName").value;
for (const name of input.names) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
  } catch {
    out.push(JSON.stringify([name, null]));
    continue;
  }
  const offset = new Intl.DateTimeFormat("en", { timeZone: name, timeZoneName: "longOffset" });
  const offsets = input.instants.map((t) => {
    const m = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(part(offset, new Date(t * 1000)));
    return m[1] === undefined ? 0 : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0));
  });
  for (const locale of input.locales) {
    const long = new Intl.DateTimeFormat(locale, { timeZone: name, timeZoneName: "long" });
    const generic = new Intl.DateTimeFormat(locale, { timeZone: name, timeZoneName: "longGeneric" });
    out.push(JSON.stringify([name, locale, input.instants.map((t, i) => [offsets[i], part(long, new Date(t * 1000)), part(generic, new Date(t * 1000))])]));
  }
}
process.stdout.write(out.join("\n") + "\n");
