// 10,000 random and malformed requests over raw sockets (random bytes, methods, paths,
// percent-escapes, headers), each checked against the outcome expected for that input
// (test/support/fuzz-requests.ts): Bun's own 400/505 where the request breaks HTTP,
// otherwise our answer with the exact status its method and target call for; never a 5xx
// of ours, never a connection closed without an answer. Seeded, so a failure reproduces.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { finalStatus, fuzzRequests, type FuzzRequest } from "../support/fuzz-requests.ts";
import { rawRequest } from "../support/raw-http.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { testSiteDir } from "../support/test-server.ts";

const REQUESTS = 10_000;
const CONCURRENCY = 64;
const BUNS_OWN = new Set(["HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n"]);
const OURS = /\r\nx-tzdb-version: /i;

let server: ServerProcess;
beforeAll(async () => {
  // With the website, so that its static files are fuzzed too.
  server = await startServerProcess({ SITE_DIR: await testSiteDir() });
}, 120_000);
afterAll(async () => server?.stop());

/**
 * What a plain GET of `target` with the same version and Host lines gets: the status a
 * fuzzed GET or HEAD must get too, whatever else it carries. The Host lines stay because
 * they change the answer today: Bun 1.4.4 resolves dot segments ("/health/..") in req.url
 * only when a usable Host lets it build an absolute URL; with an empty Host it passes the
 * target through as-is, and server/http/pipeline/request-target.ts does not resolve them.
 */
const plainAnswers = new Map<string, Promise<{ status: number; list: boolean; problem: string | null }>>();
function plainGet(target: string, version: string, hostLines: string) {
  const request = `GET ${target} ${version}\r\n${hostLines}Connection: close\r\n\r\n`;
  let answer = plainAnswers.get(request);
  if (!answer) {
    answer = rawRequest(server.port, request, 3000)
      .catch((e: Error) => `(${e.message})`)
      .then((response) => {
        const status = finalStatus(response);
        const headEnd = response.indexOf("\r\n\r\n");
        const type = /\r\ncontent-type: ([^;\r]+)/i.exec(response.slice(0, headEnd))?.[1];
        const body = response.slice(headEnd + 4);
        // A 4xx in the error shape: JSON, the .txt form, or the site's own 404 page outside the API.
        const errorBody = type === "application/json" ? /^\{"error":"[^"]+"\}$/.test(body)
          : type === "text/plain" ? /^[^\n]+\n$/.test(body)
          : status === 404 && type === "text/html" && body.startsWith("<!DOCTYPE html>");
        const problem = [200, 400, 404].includes(status) && OURS.test(response) && (status === 200 || errorBody) ? null
          : `plain GET ${JSON.stringify(request.slice(0, 120))} -> ${JSON.stringify(response.slice(0, 160))}`;
        return { status, list: /\r\netag: /i.test(response), problem };
      });
    plainAnswers.set(request, answer);
  }
  return answer;
}

/** Why `response` is not what `request` expects, or null when it is. */
async function mismatch({ text, expect: expected }: FuzzRequest, response: string): Promise<string | null> {
  const status = finalStatus(response);
  const seen = `${JSON.stringify(text.slice(0, 120))} -> ${response === "" ? "closed without an answer" : JSON.stringify(response.slice(0, 120))}`;
  switch (expected.by) {
    case "bun":
      return BUNS_OWN.has(response) ? null : `expected Bun's 400/505: ${seen}`;
    case "bun-closes":
      return response === "" ? null : `expected Bun to close (unknown method): ${seen}`;
    case "nobody-yet":
      return response === "" ? null : `expected no answer to an incomplete request line: ${seen}`;
    case "us": {
      if (!OURS.test(response)) return `expected our answer: ${seen}`;
      let want = expected.status;
      if (want === "target") {
        const hostLines = text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n").filter((l) => l.startsWith("Host:")).map((l) => `${l}\r\n`).join("");
        const requestLine = text.slice(0, text.indexOf("\r\n"));
        const plain = await plainGet(requestLine.slice(requestLine.indexOf(" ") + 1, -9), requestLine.slice(-8), hostLines);
        if (plain.problem) return plain.problem;
        want = expected.notModifiedIfList && plain.list && plain.status === 200 ? 304 : plain.status;
      }
      return status === want ? null : `expected ${want}: ${seen}`;
    }
  }
}

test(`${REQUESTS} random and malformed requests: each answered as its input calls for, none closed unanswered, no 5xx of ours`, async () => {
  const requests = fuzzRequests(20261121, REQUESTS);
  const statuses = new Map<string, number>();
  const wrong: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const response = await rawRequest(server.port, request.text, 3000).catch(() => "");
      const status = finalStatus(response);
      const key = `${request.expect.by} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const problem = await mismatch(request, response);
      if (problem) wrong.push(problem);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(`fuzz: outcomes by who answers and status ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  expect(wrong.slice(0, 20)).toEqual([]);
  expect(wrong.length).toBe(0);
  // Each kind of outcome really occurred, so the oracle was exercised on every branch.
  for (const kind of ["bun 400", "bun 505", "bun-closes 0", "us 200", "us 204", "us 400", "us 404", "us 405"]) {
    expect(statuses.get(kind) ?? 0).toBeGreaterThan(0);
  }
  expect(server.child.exitCode).toBeNull();
  const after = await fetch(`${server.url}/timezone/Europe/London`);
  expect(after.status).toBe(200);
}, 180_000);
