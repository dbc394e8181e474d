// What a tzdb update changes: names added and removed, and the zones whose clocks read
// differently now or within the next year (the changes that matter with days of notice).

import { encodeZones } from "../../server/formats/zones-format.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { toTableInput, type CompiledTzdb } from "./compile.ts";

export interface ReleaseChanges {
  added: string[];
  removed: string[];
  /** `name: before -> after` at the first instant within the window where they differ. */
  changed: string[];
}

function tableOf(tz: CompiledTzdb): ZoneTable {
  return ZoneTable.fromBuffer(encodeZones(toTableInput(tz, "")).buffer as ArrayBuffer, `tzdb ${tz.version}`);
}

const describe = (t: { utoff: number; abbr: string; isdst: boolean }) => {
  const sign = t.utoff < 0 ? "-" : "+";
  const a = Math.abs(t.utoff);
  const hhmm = `${String(Math.floor(a / 3600)).padStart(2, "0")}:${String(Math.floor((a % 3600) / 60)).padStart(2, "0")}`;
  return `${sign}${hhmm} ${t.abbr}${t.isdst ? " (DST)" : ""}`;
};

export function compareReleases(before: CompiledTzdb, after: CompiledTzdb, now: number, windowDays = 366): ReleaseChanges {
  const a = tableOf(before);
  const b = tableOf(after);
  const oldNames = new Set(a.names);
  const newNames = new Set(b.names);
  const changed: string[] = [];
  for (const name of b.names) {
    if (!oldNames.has(name)) continue;
    const za = a.resolve(name)!.zone;
    const zb = b.resolve(name)!.zone;
    // Walk both period sequences over the window; report the first disagreement.
    for (let t = now; t < now + windowDays * 86400;) {
      const pa = a.periodAt(za, t);
      const pb = b.periodAt(zb, t);
      if (pa.type.utoff !== pb.type.utoff || pa.type.abbr !== pb.type.abbr || pa.type.isdst !== pb.type.isdst) {
        const when = new Date(t * 1000).toISOString().replace(".000Z", "Z");
        changed.push(`${name}: at ${when} ${describe(pa.type)} -> ${describe(pb.type)}`);
        break;
      }
      t = Math.min(pa.end, pb.end);
    }
  }
  return {
    added: b.names.filter((n) => !oldNames.has(n)),
    removed: a.names.filter((n) => !newNames.has(n)),
    changed,
  };
}
