// Run by Node (not Bun): Node 20's ICU 78.2 (CLDR 48.0) is the reference for our names.
// Reads JSON lines {name, instants} on stdin, with the locales in the first line
// ({locales}); writes one JSON line per name: [name, offsets, longs, generics], longs and
// generics one array per locale, one entry per instant; [name, null] when ICU does not
// know the name. One line at a time, so neither side holds the whole table.
const readline = require("node:readline");
const part = (f, d) => f.formatToParts(d).find((p) => p.type === "timeZoneName").value;
let locales = null;
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const input = JSON.parse(line);
  if (locales === null) {
    locales = input.locales;
    process.stdout.write(JSON.stringify({ icu: process.versions.icu, cldr: process.versions.cldr, tz: process.versions.tz }) + "\n");
    return;
  }
  const { name, instants } = input;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
  } catch {
    process.stdout.write(JSON.stringify([name, null]) + "\n");
    return;
  }
  const dates = instants.map((t) => new Date(t * 1000));
  const offsetFormat = new Intl.DateTimeFormat("en", { timeZone: name, timeZoneName: "longOffset" });
  const offsets = dates.map((d) => {
    const m = /^GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(part(offsetFormat, d));
    return m[1] === undefined ? 0 : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0));
  });
  const longs = [];
  const generics = [];
  for (const locale of locales) {
    const long = new Intl.DateTimeFormat(locale, { timeZone: name, timeZoneName: "long" });
    const generic = new Intl.DateTimeFormat(locale, { timeZone: name, timeZoneName: "longGeneric" });
    longs.push(dates.map((d) => part(long, d)));
    generics.push(dates.map((d) => part(generic, d)));
  }
  process.stdout.write(JSON.stringify([name, offsets, longs, generics]) + "\n");
});
