// Every request the dialect guides show (site/src/lib/guides-dialects.ts) is made against
// the service: each curl line's path, method and body, answered 200 with the dialect's
// success (TimeZoneDB status OK, Google status OK).

import { beforeAll, expect, test } from "bun:test";
import { dialectGuides } from "../../../site/src/lib/guides-dialects.ts";
import { testHandler } from "../../support/test-server.ts";

let handler: (req: Request) => Response | Promise<Response>;
beforeAll(async () => {
  handler = await testHandler();
}, 120_000);

const unescape = (html: string) => html.replace(/<[^>]+>/g, "").replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", "\"");

test("every curl line of the dialect guides answers", async () => {
  let made = 0;
  for (const guide of dialectGuides) {
    for (const line of unescape(guide.html).split("\n").filter((l) => l.trimStart().startsWith("curl "))) {
      const path = /'(\/[^']*)'\s*$/.exec(line)?.[1];
      expect({ guide: guide.slug, line, path: typeof path }).toEqual({ guide: guide.slug, line, path: "string" });
      const body = /-d '([^']*)'/.exec(line)?.[1];
      const init: RequestInit = line.includes("-X POST") ? { method: "POST", body, headers: { "content-type": "application/json" } } : {};
      const response = await handler(new Request(`http://zonetime.test${path}`, init));
      const text = await response.text();
      expect({ line, status: response.status }).toEqual({ line, status: 200 });
      if (path!.startsWith("/v2")) expect(text).toMatch(/"status":"OK"|<status>OK<\/status>/);
      if (path!.startsWith("/maps")) expect(text).toMatch(/"status" : "OK"|<status>OK<\/status>/);
      made++;
    }
  }
  expect(made).toBe(21);
});
