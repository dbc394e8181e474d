// The benchmark's baselines: a minimal Bun.serve answering a constant JSON body of
// BODY_BYTES bytes. Whatever the service costs beyond this is ours.
//
// With BASELINE=floor it also does, with Bun's own calls, what every time object needs of
// Bun and nothing of ours: the raw-path routes the service registers (raw-path-guard.ts),
// reading req.url (the path), server.requestIP (client_ip), the Host header (the
// duplicate-Host check: reading one header builds the request's Headers), and a body of
// fresh bytes with the service's six response headers. Its ratio to the plain baseline is
// the ceiling a time-object route could reach on this Bun; the rest of the gap is our code.

import { rawPathRouting } from "../../server/http/bun/raw-path-guard.ts";
import { Responses } from "../../server/http/pipeline/responses.ts";

const size = Number(process.env.BODY_BYTES ?? 350);
const body = `{"x":"${"a".repeat(Math.max(0, size - 8))}"}`;
const floor = process.env.BASELINE === "floor";
const headers = new Responses("2026f").timeObjectHeaders("json");
const bytes = new TextEncoder().encode(body);
let sink = 0;
const timeObjectFloor = (req: Request, srv: { requestIP(req: Request): { address: string } | null } | null) => {
  sink += req.url.length + (srv?.requestIP(req)?.address.length ?? 0) + (req.headers.get("host")?.length ?? 0);
  return new Response(bytes.slice(), { headers });
};
const routing = rawPathRouting(timeObjectFloor);
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  development: false,
  ...(floor
    ? { routes: routing.routes, fetch: routing.fetch }
    : { fetch: () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }) }),
});
console.log(JSON.stringify({ event: "listening", url: `http://127.0.0.1:${server.port}`, floor, sink }));
process.on("SIGINT", () => process.exit(0)); // a clean exit (profilers write on exit)
