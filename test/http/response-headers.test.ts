// Responses hands every answer of a kind the same Headers object (responses.ts) and puts a
// per-answer header (/sync's Server-Timing, X-Other-Timezones, RateLimit) on the
// Response's own copy. That relies on a Response copying the Headers it is given: if an
// upgrade of Bun shared them instead, one answer's header would show up on another's.

import { expect, test } from "bun:test";
import { Responses } from "../../server/http/pipeline/responses.ts";

test("answers made one after another each keep their own header; the shared set stays as made", () => {
  const responses = new Responses("2026f");
  const shared = [...responses.timeObjectHeaders("json")];
  const first = responses.sync("{}", "t1;dur=1", false);
  const second = responses.sync("{}", "t1;dur=2", false);
  const disputed = responses.timeObjectWithOthers(new Uint8Array(2), "json", false, ["Asia/Shanghai"]);
  const plain = responses.timeObject(new Uint8Array(2), "json", false);
  plain.headers.set("RateLimit", '"default";r=1;t=1');
  expect([first.headers.get("server-timing"), second.headers.get("server-timing")]).toEqual(["t1;dur=1", "t1;dur=2"]);
  expect(disputed.headers.get("x-other-timezones")).toBe("Asia/Shanghai");
  expect(responses.timeObject(new Uint8Array(2), "json", false).headers.get("x-other-timezones")).toBeNull();
  expect(responses.timeObject(new Uint8Array(2), "json", false).headers.get("ratelimit")).toBeNull();
  expect([...responses.timeObjectHeaders("json")]).toEqual(shared);
});
