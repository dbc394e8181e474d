// A separate process that maps the rate table a test shares with it (fd 3) and takes
// tokens for one client as fast as it can: argv = burst, window seconds, client, attempts.
// Prints how many it was allowed.

import { RATE_TABLE_BYTES, RateLimiter } from "../../server/http/limits/rate-limiter.ts";
import { mapInheritedMemory } from "../../server/process/shared-memory.ts";

const [burst, windowSeconds, client, attempts] = process.argv.slice(2);
const limiter = new RateLimiter({ burst: Number(burst), windowSeconds: Number(windowSeconds), policy: "" }, mapInheritedMemory(RATE_TABLE_BYTES));
let allowed = 0;
for (let i = 0; i < Number(attempts); i++) if (limiter.take(client!, 1).allowed) allowed++;
console.log(allowed);
