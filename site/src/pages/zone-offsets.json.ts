// The map's colours and hover clocks: per zone on the map, its offset now and its changes for
// the next two years after the build (the page picks the state in force at its own time):
// [[since unixtime, utc offset seconds, abbreviation]...], the first "since" being 0.
import { zoneMapJson, zonePages } from "../lib/data";

export function GET() {
  const now = Date.now() / 1000;
  const map = JSON.parse(zoneMapJson()) as { objects: { zones: { geometries: { id: string }[] } } };
  const out: Record<string, [number, number, string][]> = {};
  for (const { id } of map.objects.zones.geometries) {
    const d = zonePages.zones[zonePages.names[id] ?? id];
    if (!d) continue;
    const states: [number, number, string][] = [[0, d.start[0], d.abbrs[d.start[2]]!]];
    for (const [at, utoff, , abbr] of d.changes) {
      if (at > now + 2 * 366 * 86400) break;
      if (at <= now) states.length = 0;
      states.push([at <= now ? 0 : at, utoff, d.abbrs[abbr]!]);
    }
    out[id] = states;
  }
  return new Response(JSON.stringify(out), { headers: { "Content-Type": "application/json" } });
}
