// `bun run bench` (zone queries part): what the table work behind /timezone/{name}/transitions,
// /timezone/{name}/info and /convert costs per call in process, for every name in turn:
// a one-year window of clock changes from now, the facts info reads (POSIX TZ string, the
// period now, the next change), and local time -> instant for local times around now
// (a tenth of them in a gap or overlap); then the same three as whole answers, JSON body
// included, as the handlers build them. Medians of repeated batches, beside a trivial Map
// lookup measured in the same run.

import { join } from "node:path";
import { DEFAULT_DATA_DIR } from "../paths.ts";
import { ZoneTable } from "../../server/tz/zone-table.ts";
import { clockChanges, nextClockChange, wallClockChange } from "../../server/tz/zone-transitions.ts";
import { instantOfLocal, type Disambiguation } from "../../server/tz/local-time.ts";
import { transitionsAnswer } from "../../server/http/routes/transitions-answer.ts";
import { zoneInfoJson } from "../../server/http/routes/zone-info-answer.ts";
import { convertBody, convertInstant } from "../../server/http/routes/convert-answer.ts";
import { formatDateTime } from "../../server/core/time-format.ts";
import { nsPerOp } from "./timing.ts";

const YEAR = 365 * 86400;

export async function benchZoneQueries(dataDir = DEFAULT_DATA_DIR): Promise<void> {
  const table = await ZoneTable.load(join(dataDir, "zones.bin"));
  const zones = table.names.map((n) => table.resolve(n)!.zone);
  const now = Math.floor(Date.now() / 1000);
  const N = 1 << 14;
  let seed = 4242;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);

  // Local times near now; every tenth one at a real change's wall clock (a gap or an overlap).
  const ny = table.resolve("America/New_York")!.zone;
  const nearChange = clockChanges(table, ny, now, now + 2 * YEAR).changes.map((c) => wallClockChange(c));
  const localZones = Int32Array.from({ length: N }, (_, i) => (i % 10 === 0 ? ny : zones[i % zones.length]!));
  const localTimes = Float64Array.from({ length: N }, (_, i) => {
    if (i % 10 === 0) {
      const w = nearChange[i % nearChange.length]!;
      return Math.min(w.localBefore, w.localAt) + 900;
    }
    return now + Math.floor(random() * YEAR);
  });
  const modes: Disambiguation[] = ["compatible", "earlier", "later", "reject"];
  const baselineMap = new Map(table.names.map((n, i) => [n, i]));

  const baseline = nsPerOp(15, 200_000, (i) => baselineMap.get(table.names[i % table.names.length]!)!);
  const transitionsNs = nsPerOp(15, 20_000, (i) => clockChanges(table, zones[i % zones.length]!, now, now + YEAR).changes.length);
  const farNs = nsPerOp(15, 2_000, (i) => clockChanges(table, zones[i % zones.length]!, now + 100 * YEAR, now + 101 * YEAR).changes.length);
  const infoNs = nsPerOp(15, 20_000, (i) => {
    const zone = zones[i % zones.length]!;
    const posix = table.posixTz(zone);
    const next = nextClockChange(table, zone, now);
    return table.periodAt(zone, now).type.utoff + (posix ? posix.tz.length : 0) + (next ? 1 : 0);
  });
  const convertNs = nsPerOp(15, 20_000, (i) => {
    const j = i & (N - 1);
    return instantOfLocal(table, localZones[j]!, localTimes[j]!, modes[i & 3]!).instant ?? 0;
  });

  const names = table.names.map((n) => table.resolve(n)!);
  const localTexts = Array.from(localTimes, (t) => formatDateTime(t));
  const utc = table.resolve("UTC")!;
  const transitionsJsonNs = nsPerOp(15, 10_000, (i) =>
    JSON.stringify(transitionsAnswer(table, names[i % names.length]!, now, now + YEAR, "spec")).length);
  const infoJsonNs = nsPerOp(15, 10_000, (i) => zoneInfoJson(table, names[i % names.length]!, now, "spec").body.length);
  const convertJsonNs = nsPerOp(15, 10_000, (i) => {
    const j = i & (N - 1);
    const from = j % 10 === 0 ? table.resolve("America/New_York")! : names[j % names.length]!;
    const instant = convertInstant(table, from, localTexts[j]!, modes[i & 3] === "reject" ? "compatible" : modes[i & 3]!);
    return convertBody(table, from, utc, instant, "spec", "json").length;
  });

  console.log("zone queries (in process, per call; goal each < 5000 ns)");
  console.log("                                              ns     x baseline");
  const row = (label: string, ns: number) => console.log(`  ${label.padEnd(42)} ${ns.toFixed(0).padStart(6)}  ${(ns / baseline).toFixed(1).padStart(7)}`);
  row("baseline: Map.get of a name", baseline);
  row("transitions: one year from now", transitionsNs);
  row("transitions: one year a century ahead", farNs);
  row("info: posix_tz, period now, next change", infoNs);
  row("convert: local time -> instant", convertNs);
  row("transitions answer, one year, JSON", transitionsJsonNs);
  row("info answer, JSON", infoJsonNs);
  row("convert answer (two time objects), JSON", convertJsonNs);
}

if (import.meta.main) await benchZoneQueries(process.env.DATA_DIR || DEFAULT_DATA_DIR);
