// `bun run bench`: every benchmark, in order: tz tables, zone queries, coordinates table, IP tables, places, memory per worker, HTTP, the fetch handler's CPU per request in process, what each memo store buys, the world clock, costly answers (304 vs 200, one client's CPU share), every route's price against its cost, London under hostile clients, the site's map under a throttled phone profile. Builds
// generated/ first when it is missing. Timings are reported as ratios to baselines
// measured in the same run, never asserted.

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "../build.ts";
import { DEFAULT_DATA_DIR, DEFAULT_TZDB_DIR } from "../paths.ts";
import { benchAnswerPrices } from "./answer-prices.ts";
import { benchLongestBlock } from "./longest-block.ts";
import { benchCostlyAnswers } from "./costly-answers.ts";
import { benchHostileLoad } from "./hostile-load.ts";
import { benchHandlerCpu } from "./handler-cpu.ts";
import { benchMapLoad } from "./map-load.ts";
import { benchMemoGains } from "./memo-gains.ts";
import { benchHttp } from "./http.ts";
import { benchWorldClock } from "./world-clock.ts";
import { benchGeo } from "./geo-lookup.ts";
import { benchIp } from "./ip-lookup.ts";
import { benchPlaces } from "./place-search.ts";
import { benchWorkerMemory } from "./worker-memory.ts";
import { benchTz } from "./tz-lookup.ts";
import { benchZoneQueries } from "./zone-queries.ts";
import { benchNames } from "./names-lookup.ts";

const dataDir = process.env.DATA_DIR || DEFAULT_DATA_DIR;
if (!existsSync(join(dataDir, "manifest.json"))) {
  const started = performance.now();
  await build({ tzdbDir: DEFAULT_TZDB_DIR, outDir: dataDir });
  console.log(`built ${dataDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
await benchTz();
console.log();
await benchZoneQueries(dataDir);
console.log();
await benchNames(dataDir);
console.log();
await benchGeo(dataDir);
console.log();
await benchIp(dataDir);
console.log();
await benchPlaces(dataDir);
console.log();
await benchWorkerMemory(resolve(dataDir));
console.log();
await benchHttp(dataDir);
console.log();
await benchHandlerCpu(dataDir);
console.log();
await benchMemoGains(dataDir);
console.log();
await benchWorldClock(dataDir);
console.log();
await benchCostlyAnswers(dataDir);
console.log();
await benchAnswerPrices(dataDir);
console.log();
await benchLongestBlock(dataDir);
console.log();
await benchHostileLoad(dataDir);
console.log();
await benchMapLoad(dataDir);
