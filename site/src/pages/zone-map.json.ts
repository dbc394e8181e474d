// The world map of the zones (TopoJSON), published by the build; drawn by lib/zone-map-draw.ts.
import { zoneMapJson } from "../lib/data";

export function GET() {
  return new Response(zoneMapJson(), { headers: { "Content-Type": "application/json" } });
}
