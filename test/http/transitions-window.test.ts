// /transitions honours the microseconds of `from` and `to` ([from, to) to the microsecond:
// a change at 07:00:00 is before from=07:00:00.5 and before to=07:00:00.000001), and /info's
// next_transition is null past year 9999, as dst_until is (no RFC 3339 form exists there).

import { beforeAll, describe, expect, test } from "bun:test";
import { testHandler } from "../support/test-server.ts";

let handle: (req: Request) => Response;
beforeAll(async () => {
  handle = await testHandler();
}, 300_000);

const get = async (path: string) => {
  const response = handle(new Request(`http://127.0.0.1${path}`));
  return { status: response.status, body: (await response.json()) as any };
};
const NY = "/timezone/America/New_York/transitions";
/** A change New York has (DST begins), found through the service itself. */
let change: { unixtime: number; at: string };
beforeAll(async () => {
  const { body } = await get(`${NY}?from=2027-01-01T00:00:00Z&to=2027-06-01T00:00:00Z`);
  change = body.transitions[0];
  expect(change.at).toBe("2027-03-14T07:00:00Z");
});
const listed = (body: any) => body.transitions.map((t: { unixtime: number }) => t.unixtime);

describe("transitions to the microsecond", () => {
  test("a fractional from just after the change leaves it out (unix seconds and RFC 3339)", async () => {
    for (const from of [`${change.unixtime}.5`, `${change.unixtime}.000001`, "2027-03-14T07:00:00.000001Z"]) {
      const { status, body } = await get(`${NY}?from=${from}&to=2027-06-01T00:00:00Z`);
      expect({ from, status, listed: listed(body) }).toEqual({ from, status: 200, listed: [] });
    }
    const exact = await get(`${NY}?from=${change.unixtime}&to=2027-06-01T00:00:00Z`);
    expect(listed(exact.body)).toEqual([change.unixtime]);
  });
  test("a fractional to just after the change keeps it; to exactly at it leaves it out", async () => {
    const after = await get(`${NY}?from=2027-01-01T00:00:00Z&to=2027-03-14T07:00:00.000001Z`);
    expect(listed(after.body)).toEqual([change.unixtime]);
    const at = await get(`${NY}?from=2027-01-01T00:00:00Z&to=2027-03-14T07:00:00Z`);
    expect(listed(at.body)).toEqual([]);
  });
  test("to after from within one second is a window (empty), not an error; to not after from is", async () => {
    const inside = await get(`${NY}?from=2027-03-14T07:00:00.1Z&to=2027-03-14T07:00:00.9Z`);
    expect({ status: inside.status, listed: listed(inside.body) }).toEqual({ status: 200, listed: [] });
    const around = await get(`${NY}?from=2027-03-14T06:59:59.9Z&to=2027-03-14T07:00:00.1Z`);
    expect(listed(around.body)).toEqual([change.unixtime]);
    for (const to of ["2027-03-14T07:00:00.1Z", "2027-03-14T07:00:00.05Z"]) {
      const refused = await get(`${NY}?from=2027-03-14T07:00:00.1Z&to=${to}`);
      expect({ to, status: refused.status, body: refused.body }).toEqual({ to, status: 400, body: { error: "invalid to: must be after from" } });
    }
  });
});

describe("info past year 9999", () => {
  test("next_transition is null when the next change falls after 9999-12-31 (every zone with DST then), never a year 10000", async () => {
    const names = (await get("/timezone")).body as string[];
    let checked = 0;
    for (const name of names) {
      const { status, body } = await get(`/timezone/${name}/info?at=9999-12-31T23:59:59Z`);
      expect(status).toBe(200);
      if (body.next_transition !== null) expect({ name, at: body.next_transition.at }).toEqual({ name, at: expect.stringMatching(/^9999-/) });
      checked++;
    }
    expect(checked).toBe(names.length);
    const sydney = await get("/timezone/Australia/Sydney/info?at=9999-12-31T23:59:59Z");
    expect(sydney.body.next_transition).toBeNull();
    // Before the end of 9999 the next change is still given.
    const earlier = await get("/timezone/Australia/Sydney/info?at=9999-01-01T00:00:00Z");
    expect(earlier.body.next_transition.at).toMatch(/^9999-/);
  });
});
