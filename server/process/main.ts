// The one entry point: `bun server/process/main.ts` (containers, `bun run start` after its
// build check, the tests). A SIGHUP handler first (early-hangup.ts: a SIGHUP while the
// modules load must not kill the process), then everything else, loaded only after it is
// installed (a dynamic import: static ones are all read and compiled before any runs).

import "./early-hangup.ts";

await import("./run-process.ts");
