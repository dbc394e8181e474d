// Sends bytes over a plain TCP socket and returns what came back, for requests fetch()
// refuses to make (no Host, a garbage Host, invalid request lines).

import { connect } from "node:net";

export function rawRequest(port: number, bytes: string | Uint8Array, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString("latin1"));
    }, timeoutMs);
    socket.on("connect", () => socket.write(bytes));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", (e) => {
      clearTimeout(timer);
      if (chunks.length > 0) resolve(Buffer.concat(chunks).toString("latin1"));
      else reject(e);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("latin1"));
    });
  });
}

export function statusOf(response: string): number {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(response);
  return m ? Number(m[1]) : 0;
}
