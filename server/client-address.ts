// The address a request came from: the socket peer, as Bun reports it. Null when there is
// none (a request handed to the handler directly); IPv4-mapped IPv6 peers (`::ffff:a.b.c.d`,
// what a dual-stack socket reports for IPv4 clients) are shown as plain IPv4.

import type { Server } from "bun";

export function peerAddress(req: Request, server: Server<unknown> | null): string | null {
  const peer = server?.requestIP(req);
  if (!peer) return null;
  const address = peer.address;
  if (address.length > 7 && address.slice(0, 7).toLowerCase() === "::ffff:" && address.includes(".")) return address.slice(7);
  return address;
}
