// The drain's listener gate on a real socket: new connection attempts stop completing,
// connections already established keep working, and connections the kernel queued before
// the gate are counted and then accepted and answered.

import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { gateListeners } from "../../server/ops/accept-queue.ts";

const servers: { stop(force: boolean): unknown }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

function serve() {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", development: false, fetch: () => new Response("ok") });
  servers.push(server);
  return server.port!;
}

/** Resolves "connected", the error, or "pending" after `ms`. */
function tryConnect(port: number, ms: number): Promise<{ outcome: string; socket: Socket }> {
  const socket = connect(port, "127.0.0.1");
  return new Promise((resolve) => {
    socket.once("connect", () => resolve({ outcome: "connected", socket }));
    socket.once("error", (e) => resolve({ outcome: String(e), socket }));
    setTimeout(() => resolve({ outcome: "pending", socket }), ms);
  });
}

/** The accept queue of our listener as /proc/net/tcp shows it (rx_queue of the LISTEN line): an independent reading. */
function backlogFromProc(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hexPort}`) && f[3] === "0A") return parseInt(f[4]!.split(":")[1]!, 16);
  }
  return 0;
}

function get(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (text.endsWith("ok")) {
        socket.off("data", onData);
        resolve(text);
      }
    };
    socket.on("data", onData);
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  });
}

describe.skipIf(process.platform !== "linux")("accept-queue gate", () => {
  test("after the gate, a new connection does not complete; an established one keeps working", async () => {
    const port = serve();
    const otherPort = serve();
    const established = await tryConnect(port, 2000);
    expect(established.outcome).toBe("connected");
    expect(await get(established.socket)).toStartWith("HTTP/1.1 200");

    const gate = gateListeners([port]);
    expect(gate).not.toBeNull();
    expect(gate!.listeners).toBe(1);

    const fresh = await tryConnect(port, 400);
    expect(fresh.outcome).toBe("pending"); // its SYN was dropped; it would retry in ~1 s
    const other = await tryConnect(otherPort, 2000);
    expect(other.outcome).toBe("connected"); // only the ports asked for are gated
    other.socket.destroy();
    expect(await get(established.socket)).toStartWith("HTTP/1.1 200");
    fresh.socket.destroy();
    established.socket.destroy();
  });

  test("connections queued before the gate are counted, then accepted and answered", async () => {
    const port = serve();
    const clients = Array.from({ length: 5 }, () =>
      Bun.spawn(["curl", "-s", "--max-time", "10", `http://127.0.0.1:${port}/`], { stdout: "pipe", stderr: "ignore" }));
    // Block the event loop: the kernel completes the handshakes and queues them for us.
    const until = Date.now() + 5000;
    while (Date.now() < until && backlogFromProc(port) < 5) { /* busy */ }
    const gate = gateListeners([port])!;
    expect(gate.queued()).toBe(5);
    const drained = await gate.drained(2000);
    expect(drained.empty).toBe(true);
    expect(gate.queued()).toBe(0);
    const bodies = await Promise.all(clients.map((c) => new Response(c.stdout).text()));
    expect(bodies).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  });
});
