// timeapi.io's Swagger, every action, at the paths its clients send in any letter case (its
// `/api` prefix too), through a real server (the raw-path guard included). Translate is the
// action a client covering all of them met as a 405; its friendly strings are checked against
// ICU in Node 20 (the reference), and the one example we know from timeapi.io's own docs.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { requireTool } from "../../support/require-tool.ts";
import { startTestServer } from "../../support/test-server.ts";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: "off" });
}, 120_000);
afterAll(() => server?.stop());

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

/** The Swagger's actions, as [method, path, JSON body]. */
const ACTIONS: [string, string, unknown?][] = [
  ["GET", "/api/Time/current/zone?timeZone=Europe/Amsterdam"],
  ["GET", "/api/Time/current/coordinate?latitude=52.37&longitude=4.89"],
  ["GET", "/api/Time/current/ip?ipAddress=8.8.8.8"],
  ["GET", "/api/TimeZone/AvailableTimeZones"],
  ["GET", "/api/TimeZone/zone?timeZone=Europe/Amsterdam"],
  ["GET", "/api/TimeZone/coordinate?latitude=52.37&longitude=4.89"],
  ["GET", "/api/TimeZone/ip?ipAddress=8.8.8.8"],
  ["POST", "/api/Conversion/ConvertTimeZone", { fromTimeZone: "Europe/Amsterdam", dateTime: "2021-03-14 17:45:00", toTimeZone: "America/Los_Angeles", dstAmbiguity: "" }],
  ["POST", "/api/Conversion/Translate", { dateTime: "2021-03-14 17:45:00", languageCode: "de" }],
  ["GET", "/api/Conversion/DayOfTheWeek/2021-03-14"],
  ["GET", "/api/Conversion/DayOfTheYear/2021-03-14"],
  ["POST", "/api/Calculation/current/increment", { timeZone: "Europe/Amsterdam", timeSpan: "16:03:45:17" }],
  ["POST", "/api/Calculation/current/decrement", { timeZone: "Europe/Amsterdam", timeSpan: "16:03:45:17" }],
  ["POST", "/api/Calculation/custom/increment", { timeZone: "Europe/Amsterdam", dateTime: "2021-03-14 17:45:00", timeSpan: "16:03:45:17", dstAmbiguity: "" }],
  ["POST", "/api/Calculation/custom/decrement", { timeZone: "Europe/Amsterdam", dateTime: "2021-03-14 17:45:00", timeSpan: "16:03:45:17", dstAmbiguity: "" }],
  ["GET", "/api/Health/Check"],
];

/** What ICU in Node 20 writes for a wall time in `language`: the full date and the short time. */
function icuFriendly(wall: string, languages: string[]): Record<string, { date: string; time: string }> {
  const node = requireTool("node");
  const script = `const d = new Date(${JSON.stringify(`${wall.replace(" ", "T")}Z`)}); const out = {};
for (const l of ${JSON.stringify(languages)}) out[l] = { date: new Intl.DateTimeFormat(l, { dateStyle: "full", timeZone: "UTC" }).format(d),
  time: new Intl.DateTimeFormat(l, { timeStyle: "short", timeZone: "UTC" }).format(d) };
console.log(JSON.stringify(out));`;
  const run = Bun.spawnSync([node, "-e", script]);
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString());
}

describe("timeapi.io's Swagger", () => {
  test("every action answers 200 JSON (or Health's text), in its own case and all in upper and lower case", async () => {
    for (const spelling of [(p: string) => p, (p: string) => p.toUpperCase().replace(/(\?.*)$/, (q) => q), (p: string) => p.toLowerCase()]) {
      for (const [method, path, body] of ACTIONS) {
        const [route, query] = path.split("?");
        const sent = spelling(route!) + (query ? `?${query}` : "");
        const res = method === "POST" ? await post(sent, body) : await fetch(`${server.url}${sent}`);
        expect({ sent, status: res.status }).toEqual({ sent, status: 200 });
        await res.arrayBuffer();
      }
    }
  });

  test("the README's paths in any case: /API/..., /Api/... as /api/...", async () => {
    const ref = (await (await fetch(`${server.url}/api/TimeZone/zone?timeZone=UTC`)).json()) as { timeZone: string };
    for (const prefix of ["/API", "/Api", "/aPI"]) {
      const res = await fetch(`${server.url}${prefix}/Time/current/zone?timeZone=UTC`);
      expect({ prefix, status: res.status, type: res.headers.get("content-type") }).toEqual({ prefix, status: 200, type: "application/json; charset=utf-8" });
      expect(Object.keys((await res.json()) as object)).toContain("dateTime");
      const zone = (await (await fetch(`${server.url}${prefix}/timezone/ZONE?timeZone=UTC`)).json()) as { timeZone: string };
      expect(zone.timeZone).toBe(ref.timeZone);
    }
    // Only timeapi.io's paths take the prefix in another case: the WorldTimeAPI profile's are /api's alone.
    expect((await fetch(`${server.url}/API/timezone/Europe/London`)).status).toBe(404);
  });

  test("Translate: ICU's full date and short time in the language asked for; the dateTime echoed", async () => {
    const wall = "2021-03-14 17:45:00";
    const languages = ["de", "en", "fr", "es", "ja", "ar", "ru"];
    const icu = icuFriendly(wall, languages);
    const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, " ");
    for (const language of languages) {
      const res = await post("/api/Conversion/Translate", { dateTime: wall, languageCode: language.toUpperCase() });
      const body = await res.json();
      const { date, time } = icu[language]!;
      expect(body).toEqual({ dateTime: wall, languageCode: language, friendlyDateTime: plain(`${date} ${time}`), friendlyDate: plain(date), friendlyTime: plain(time) });
    }
    const german = (await (await post("/api/Conversion/Translate", { dateTime: wall, languageCode: "de" })).json()) as { friendlyDate: string };
    expect(german.friendlyDate).toBe("Sonntag, 14. März 2021");
  });

  test("Translate refuses what it cannot translate with timeapi.io's 400 text", async () => {
    for (const body of [{ dateTime: "2021-03-14 17:45:00" }, { dateTime: "2021-02-30 10:00:00", languageCode: "de" }, { dateTime: "2021-03-14 17:45:00", languageCode: "deu" },
      { dateTime: "2021-03-14 17:45:00", languageCode: "zz" }, { languageCode: "de" }]) {
      const res = await post("/api/Conversion/Translate", body);
      expect({ body, status: res.status, type: res.headers.get("content-type") }).toEqual({ body, status: 400, type: "text/plain; charset=utf-8" });
    }
    expect((await fetch(`${server.url}/api/Conversion/Translate`)).status).toBe(405);
  });
});
