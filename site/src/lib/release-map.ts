// Build-time: which zones of the map a release's page lights, from what the release changed
// (lib/releases.ts) and the map's zones (the build's zone-map.json). A name with an area of its
// own is drawn as itself; a link, or a zone merged since, as the zone it names today, whose
// area covers it; a name with no area (Etc/GMT+5, EST5EDT) is listed beside the map.

import { zoneMapJson, zonePages } from "./data";
import type { ReleasePage } from "./releases";
import type { ChangeKind, ReleaseMapData } from "./release-map-kinds";

let onMap: Set<string> | null = null;
/** The zones drawn on the map: read once per build, not once per page. */
const zonesOnMap = () => (onMap ??= new Set((JSON.parse(zoneMapJson()) as { objects: { zones: { geometries: { id: string }[] } } }).objects.zones.geometries.map((g) => g.id)));

export function releaseMapData(page: ReleasePage): ReleaseMapData {
  const names: [string, ChangeKind][] = [...page.changed.map((c): [string, ChangeKind] => [c.name, c.future ? "future" : "past"]), ...page.added.map((n): [string, ChangeKind] => [n, "added"])];
  const data: ReleaseMapData = { release: page.release, shapes: {}, offMap: [] };
  for (const entry of names) {
    const [name] = entry;
    const today = zonePages.names[name];
    const zone = zonesOnMap().has(name) ? name : today !== undefined && zonesOnMap().has(today) ? today : null;
    if (zone === null) data.offMap.push(entry);
    else (data.shapes[zone] ??= []).push(entry);
  }
  // The zone's own name first: its page is where the shape links.
  for (const [zone, list] of Object.entries(data.shapes)) list.sort((a, b) => Number(b[0] === zone) - Number(a[0] === zone) || a[0].localeCompare(b[0]));
  return data;
}
