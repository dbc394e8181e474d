// The benchmark's baseline: a minimal Bun.serve answering a constant JSON body of
// BODY_BYTES bytes. Whatever the service costs beyond this is ours.

const size = Number(process.env.BODY_BYTES ?? 350);
const body = `{"x":"${"a".repeat(Math.max(0, size - 8))}"}`;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  development: false,
  fetch: () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
});
console.log(JSON.stringify({ event: "listening", url: `http://127.0.0.1:${server.port}` }));
