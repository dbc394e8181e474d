// The wrk summary parser the load tests rely on: an absent error line is 0, a missing or
// changed line is a failure, never a silent 0.

import { expect, test } from "bun:test";
import { parseWrk } from "../support/wrk-report.ts";

const SUMMARY = `Running 4s test @ http://127.0.0.1:8080/timezone/UTC
  1 threads and 50 connections
  40000 requests in 4.00s, 12.34MB read
  Socket errors: connect 0, read 1, write 12, timeout 0
  Non-2xx or 3xx responses: 3
Requests/sec:  10000.00
Transfer/sec:      3.08MB
`;

test("every count is read", () => {
  expect(parseWrk(SUMMARY)).toEqual({
    requests: 40000, requestsPerSecond: 10000, socketErrors: { connect: 0, read: 1, write: 12, timeout: 0 }, non2xx3xx: 3,
  });
});

test("no Socket errors or Non-2xx line: wrk saw none", () => {
  const clean = parseWrk(SUMMARY.replace(/ {2}Socket errors.*\n {2}Non-2xx.*\n/, ""));
  expect(clean.socketErrors).toEqual({ connect: 0, read: 0, write: 0, timeout: 0 });
  expect(clean.non2xx3xx).toBe(0);
});

test("a line that does not parse, or a missing summary line, is an error", () => {
  expect(() => parseWrk(SUMMARY.replace("read 1,", "read 1, reset 2,"))).toThrow('wrk: cannot parse "Socket errors: connect 0, read 1, reset 2');
  expect(() => parseWrk(SUMMARY.replace("responses: 3", "responses: many"))).toThrow("wrk: cannot parse");
  expect(() => parseWrk(SUMMARY.replace(/.*requests in.*\n/, ""))).toThrow("wrk printed no line matching / requests in /");
  expect(() => parseWrk("")).toThrow("wrk printed no line");
});
