// client_ip for /ip/{address} is the address asked about in RFC 5952 text: an
// IPv4-mapped address keeps its dotted tail (section 5), whatever form it was asked in.

import { beforeAll, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 120_000);

test.each([
  ["::ffff:8.8.8.8", "::ffff:8.8.8.8"],
  ["::FFFF:808:808", "::ffff:8.8.8.8"],
  ["0:0:0:0:0:ffff:8.8.8.8", "::ffff:8.8.8.8"],
  ["2001:4860:4860:0:0:0:0:8888", "2001:4860:4860::8888"],
  ["8.8.8.8", "8.8.8.8"],
])("/ip/%s echoes client_ip %s", async (asked, echoed) => {
  for (const prefix of ["", "/api"]) {
    const r = handle(new Request(`http://localhost${prefix}/ip/${asked}`));
    expect(r.status).toBe(200);
    expect(((await r.json()) as { client_ip: string }).client_ip).toBe(echoed);
  }
});
