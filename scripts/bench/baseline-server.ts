// The benchmark's baselines: a minimal Bun.serve answering a constant JSON body of
// BODY_BYTES bytes. Whatever the service costs beyond this is ours.
//
// With BASELINE=floor it also does the per-request work any answer of the service needs
// from Bun itself: the same six response headers, reading req.url (the path) and
// server.requestIP (client_ip, rate limits). Its ratio to the plain baseline is the
// ceiling a service doing only that could reach; the rest of the gap is our own code.

import { Responses } from "../../server/http/responses.ts";

const size = Number(process.env.BODY_BYTES ?? 350);
const body = `{"x":"${"a".repeat(Math.max(0, size - 8))}"}`;
const floor = process.env.BASELINE === "floor";
const headers = new Responses("2026f").timeObjectHeaders("json");
let sink = 0;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  development: false,
  fetch: floor
    ? (req, srv) => {
        sink += req.url.length + (srv.requestIP(req)?.address.length ?? 0);
        return new Response(body, { headers });
      }
    : () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
});
console.log(JSON.stringify({ event: "listening", url: `http://127.0.0.1:${server.port}`, floor, sink }));
process.on("SIGINT", () => process.exit(0)); // a clean exit (profilers write on exit)
