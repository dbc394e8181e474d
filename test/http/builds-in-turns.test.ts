// A long build must not hold a worker (issue 30: "no single build may block a worker for more
// than a few milliseconds"). The releases feed walks every consecutive pair of releases
// (300-470 ms on a fresh worker), a far pair of releases 500 names: each is made on the
// history thread (time-machine/history-builds.ts); a device list at year 10 fires every
// zone's rules, in turns (core/in-turns.ts). So a client asking for a time object meanwhile
// is answered meanwhile. Measured as what a client sees, on a real server:
// how many time objects one client, asking one after another, gets while the long answer is
// being made. Made at once, the build holds the worker and that client gets none.
//
// And what answering later must not break: the answer is the one made at once, a key's build
// is shared by the requests that ask while it is under way, and a pair's up-front charge
// lands before the same client's next request is admitted.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer } from "../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

/** Time objects one client gets, one request after another, while `long` is being answered; and `long`'s answer. */
async function answeredMeanwhile(long: string): Promise<{ meanwhile: number; status: number; body: string }> {
  let done = false;
  const answer = fetch(`${server.url}${long}`).then(async (r) => ({ status: r.status, body: await r.text() })).finally(() => (done = true));
  let meanwhile = 0;
  while (!done) {
    const r = await fetch(`${server.url}/timezone/Europe/London`);
    expect(r.status).toBe(200);
    await r.arrayBuffer();
    if (!done) meanwhile++;
  }
  return { meanwhile, ...(await answer) };
}

describe("a long build leaves the worker to other clients", () => {
  test("the releases feed, first asked on a fresh worker", async () => {
    const { meanwhile, status, body } = await answeredMeanwhile("/tzdb/feed.atom");
    expect(status).toBe(200);
    expect(body).toContain("<entry>");
    // Made at once: 0 or 1 (a request that came in before the build began); in turns, 105 measured.
    expect(meanwhile).toBeGreaterThanOrEqual(10);
  }, 60_000);

  test("what changed between two far releases", async () => {
    const { meanwhile, status, body } = await answeredMeanwhile("/tzdb/2026f/changes?since=2001a");
    expect(status).toBe(200);
    expect(JSON.parse(body).changed.length).toBeGreaterThan(100);
    expect(meanwhile).toBeGreaterThanOrEqual(5); // 1 made at once, 41 in turns
  }, 60_000);

  test("a name's feed and a device list at an instant no worker has kept", async () => {
    const feed = await answeredMeanwhile("/timezone/America/Sao_Paulo/feed.json");
    expect(feed.status).toBe(200);
    expect(JSON.parse(feed.body).items.length).toBeGreaterThan(5);
    const list = await answeredMeanwhile("/device?at=0010-06-01T00:00:00Z");
    expect(list.status).toBe(200);
    expect(Object.keys(JSON.parse(list.body).zones).length).toBe(597);
    expect(list.meanwhile).toBeGreaterThanOrEqual(1); // 3 measured; 0 made at once
  }, 60_000);
});

describe("answering later changes nothing else", () => {
  test("requests that ask while a key's build is under way share it, and all get the same bytes and ETag", async () => {
    const path = "/tzdb/2026f/changes?since=2003a";
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${server.url}${path}`)));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
    const revalidated = await fetch(`${server.url}${path}`, { headers: { "If-None-Match": answers[0]!.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
  }, 60_000);

  test("an answer made in turns is dated the second it leaves, not the second another request read the clock", async () => {
    for (const path of ["/tzdb/2026f/changes?since=2002b", "/device?at=0030-06-01T00:00:00Z"]) {
      const sent = Math.floor(Date.now() / 1000);
      const r = await fetch(`${server.url}${path}`);
      await r.arrayBuffer();
      const received = Math.floor(Date.now() / 1000);
      const dated = Date.parse(r.headers.get("date")!) / 1000;
      expect(dated).toBeGreaterThanOrEqual(sent);
      expect(dated).toBeLessThanOrEqual(received);
    }
  }, 60_000);

  test("a refusal found after the first turn is still the route's 4xx, and ?tzdb= lists answer from their release", async () => {
    const bad = await fetch(`${server.url}/tzdb/2019c/changes?since=2026f`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain("since");
    const old = (await (await fetch(`${server.url}/device?tzdb=2019c&at=2020-06-01T00:00:00Z`)).json()) as { tzdb_version: string };
    const now = (await (await fetch(`${server.url}/device?at=2020-06-01T00:00:00Z`)).json()) as { tzdb_version: string };
    expect(old.tzdb_version).toBe("2019c");
    expect(now.tzdb_version).toBe("2026f");
    // Asked again, the default list is still the default release's (the release's answer was kept in its own cache).
    const versionOf = async (path: string) => ((await (await fetch(`${server.url}${path}`)).json()) as { tzdb_version: string }).tzdb_version;
    expect(await versionOf("/device?at=2020-06-01T00:00:00Z")).toBe("2026f");
    expect(await versionOf("/device?tzdb=2019c&at=2020-06-01T00:00:00Z")).toBe("2019c");
  }, 60_000);
});

describe("a build made later is charged before the client's next request", () => {
  test("two far pairs sent at once by one limited client: the second is refused", async () => {
    const limited = await startTestServer({ RATE_LIMIT: "60/60s", TRUST_PROXY: "loopback" });
    try {
      const client = { "X-Forwarded-For": "203.0.113.9" };
      const [first, second] = await Promise.all([
        fetch(`${limited.url}/tzdb/2026f/changes?since=2000f`, { headers: client }),
        fetch(`${limited.url}/tzdb/2025c/changes?since=2000g`, { headers: client }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 429]);
    } finally {
      limited.stop();
    }
  }, 60_000);
});
