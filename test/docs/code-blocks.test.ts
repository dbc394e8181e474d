// Every code block of README.md and docs/*.md is run, so what the documentation shows is
// what the service does: the set-up commands for real, each curl line against a server with
// what its comment claims checked, each JSON answer against the request the text names, and
// the deployment block by test/http/shared-rate-limit.test.ts (here: that it is the block
// that test reads). A block no rule below runs fails the test, so a new one needs a runner.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../support/free-port.ts";
import { documentedDeployment } from "../support/nginx.ts";
import { ROOT, startTestServer } from "../support/test-server.ts";

interface Block {
  file: string;
  info: string;
  body: string;
  /** The paragraph just above the block (what introduces it). */
  intro: string;
}

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    let above = i;
    while (above > 0 && lines[above - 1] === "") above--;
    let start = above;
    while (start > 0 && lines[start - 1] !== "" && !lines[start - 1]!.startsWith("#")) start--;
    blocks.push({ file, info: open[1]!, body: lines.slice(i + 1, end).join("\n") + "\n", intro: lines.slice(start, above).join(" ") });
    i = end;
  }
  return blocks;
}

const DOC_FILES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const BLOCKS = DOC_FILES.flatMap(blocksOf);

const isSetup = (b: Block) => b.file === "README.md" && b.body.startsWith("bash scripts/bootstrap.sh");
const isCurlLines = (b: Block) => b.info === "sh" && b.body.trim().split("\n").every((l) => l.startsWith("curl "));
const isDeployment = (b: Block) => b.info === "sh" && b.body.includes("redis-server ");
const isAnswer = (b: Block) => b.info === "json";

/** "cmd   # comment" -> [cmd, comment]; a '#' inside quotes is not a comment (none of ours has one). */
const splitComment = (line: string): [string, string] => {
  const at = line.search(/\s+# /);
  return at < 0 ? [line, ""] : [line.slice(0, at), line.slice(line.indexOf("# ", at) + 2).trim()];
};

/** Runs one documented curl line as printed, through bash, against `port` instead of 8080. */
async function runCurl(line: string, port: number): Promise<{ status: number; body: string }> {
  const dir = mkdtempSync(join(tmpdir(), "zonetime-doc-curl-"));
  const bodyFile = join(dir, "body");
  // The line's own words run unchanged; the function only keeps the body and prints the status.
  const script = `curl() { command curl -sS -o ${JSON.stringify(bodyFile)} -w '%{http_code}' "$@"; }\n${line.replaceAll("localhost:8080", `127.0.0.1:${port}`)}\n`;
  // Asynchronously: the server answering it runs in this process.
  const run = Bun.spawn(["bash", "-c", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  if (exitCode !== 0) throw new Error(`${line}: ${stderr}`);
  return { status: Number(stdout), body: readFileSync(bodyFile, "utf8") };
}

/** What a curl line's comment claims, checked against its answer. */
function checkComment(line: string, comment: string, status: number, body: string): void {
  const statusClaim = /\((\d{3})\b/.exec(comment);
  expect({ line, status }).toEqual({ line, status: statusClaim ? Number(statusClaim[1]) : 200 });
  if (statusClaim || comment === "") return;
  const first = /^(\S+) first$/.exec(comment);
  if (first) {
    expect({ line, first: JSON.parse(body)[0] }).toEqual({ line, first: first[1] });
    return;
  }
  // Quoted fragments of the answer, "..." where the comment elides; else plain items, ", " between.
  const fragments = comment.includes('"')
    ? comment.split("...").map((f) => f.trim().replace(/^,|,$/g, "")).filter((f) => f.startsWith('"') || f.startsWith("["))
    : comment.split(", ").filter((f) => f !== "...");
  expect(fragments.length).toBeGreaterThan(0);
  for (const fragment of fragments) expect({ line, fragment, found: body.includes(fragment) }).toEqual({ line, fragment, found: true });
}

describe("the documentation's code blocks", () => {
  test("each is one this file runs (set-up, curl lines, a JSON answer, the deployment)", () => {
    expect(DOC_FILES).toContain("docs/deployment.md");
    const unrun = BLOCKS.filter((b) => !isSetup(b) && !isCurlLines(b) && !isDeployment(b) && !isAnswer(b));
    expect(unrun.map((b) => `${b.file}: \`\`\`${b.info}\n${b.body}`)).toEqual([]);
    expect(BLOCKS.filter(isSetup)).toHaveLength(1);
    expect(BLOCKS.filter(isDeployment)).toHaveLength(1);
  });

  test("the README's test command is the one CI runs", () => {
    const setup = BLOCKS.find(isSetup)!.body.trim().split("\n").map((l) => splitComment(l)[0].trim());
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8").split("\n");
    const verbatim = ci[ci.indexOf("# The README's test command, verbatim:") + 1]!;
    expect(verbatim.startsWith(`${setup[1]!} 2>&1`)).toBe(true);
  });

  test("the README's start command serves the API and the website", async () => {
    const command = splitComment(BLOCKS.find(isSetup)!.body.split("\n")[0]!)[0].trim();
    expect(command).toBe("bash scripts/bootstrap.sh && bun run start");
    const port = await freePort();
    // Its own process group, so the supervisor and its workers all stop with it.
    const child = spawn("bash", ["-c", command], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, detached: true, stdio: "ignore" });
    try {
      let ready = false;
      for (const deadline = Date.now() + 120_000; !ready && Date.now() < deadline && child.exitCode === null; await Bun.sleep(200)) {
        ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false);
      }
      expect(ready).toBe(true);
      const zone = await fetch(`http://127.0.0.1:${port}/timezone/Europe/London`);
      expect(zone.status).toBe(200);
      expect(((await zone.json()) as { timezone: string }).timezone).toBe("Europe/London");
      const site = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: "text/html" } });
      expect(site.status).toBe(200);
      expect(site.headers.get("content-type")).toContain("text/html");
      expect(await site.text()).toContain("zonetime");
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  }, 180_000);

  describe("against a server", () => {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    beforeAll(async () => {
      server = await startTestServer();
    }, 300_000);
    afterAll(() => server?.stop());

    test("every curl line answers as its comment says", async () => {
      const lines = BLOCKS.filter(isCurlLines).flatMap((b) => b.body.trim().split("\n"));
      expect(lines.length).toBeGreaterThanOrEqual(20);
      for (const line of lines) {
        const [command, comment] = splitComment(line);
        const { status, body } = await runCurl(command, server.port);
        checkComment(line, comment, status, body);
      }
    }, 60_000);

    test("every JSON answer is what the request its text names answers", async () => {
      const answers = BLOCKS.filter(isAnswer);
      expect(answers.length).toBeGreaterThanOrEqual(2);
      for (const block of answers) {
        const request = [...block.intro.matchAll(/`(curl '[^']*')`/g)].pop()?.[1];
        expect({ file: block.file, request }).toEqual({ file: block.file, request: expect.stringMatching(/^curl /) });
        const { status, body } = await runCurl(request!, server.port);
        expect({ request, status }).toEqual({ request, status: 200 });
        expect({ request, answer: JSON.parse(body) }).toEqual({ request, answer: JSON.parse(block.body) });
      }
    }, 60_000);
  });

  test("the deployment block is the one test/http/shared-rate-limit.test.ts runs", () => {
    const deployment = documentedDeployment();
    expect(deployment.block).toBe(BLOCKS.find(isDeployment)!.body);
    expect(deployment.replicas).toHaveLength(2);
    expect(deployment.redisArgs).toContain("--maxmemory-policy");
  });
});
