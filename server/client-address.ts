// The address a request came from: the socket peer, as Bun reports it. Null when there is
// none (a request handed to the handler directly); IPv4-mapped IPv6 peers (`::ffff:a.b.c.d`,
// what a dual-stack socket reports for IPv4 clients) are shown as plain IPv4.
// On the hot path of every time object: char-code tests, no lowercasing or splitting.

import type { Server } from "bun";

const MAPPED_PREFIX = "::ffff:";

export function peerAddress(req: Request, server: Server<unknown> | null): string | null {
  const peer = server?.requestIP(req);
  if (!peer) return null;
  const address = peer.address;
  // Bun prints IPv6 in lowercase; a mapped IPv4 peer is the only IPv6 form with a dot.
  if (peer.family === "IPv6" && address.startsWith(MAPPED_PREFIX) && address.indexOf(".", 7) > 0) return address.slice(7);
  return address;
}
