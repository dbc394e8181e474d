// nginx started by a test with the repository's own configuration (server/deploy/nginx.conf,
// the one docs/deployment.md links), its listening port and upstream servers set to the test's.

import type { Subprocess } from "bun";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { requireTool } from "./require-tool.ts";
import { ROOT } from "./test-server.ts";

export const NGINX_CONF = join(ROOT, "server", "deploy", "nginx.conf");

/** The shipped configuration with only `listen` and the upstream's `server` lines replaced (a port is on 127.0.0.1; else "address:port"). */
export function nginxConfig(listenPort: number, upstreams: (number | string)[], file = NGINX_CONF): string {
  const text = readFileSync(file, "utf8");
  const servers = [...text.matchAll(/^(\s*)server 127\.0\.0\.1:\d+;\n/gm)];
  if (servers.length === 0 || !/listen \d+;/.test(text)) throw new Error(`${NGINX_CONF}: no upstream server lines or listen line to point at the test's ports`);
  const indent = servers[0]![1]!;
  const block = upstreams.map((u) => `${indent}server ${typeof u === "number" ? `127.0.0.1:${u}` : u};\n`).join("");
  return text.replace(servers.map((s) => s[0]).join(""), block).replace(/listen \d+;/, `listen ${listenPort};`);
}

/** `options.file`: another of server/deploy/'s nginx configurations; `options.edit`: what the test changes besides the ports (given its own folder). */
export async function startNginx(upstreams: (number | string)[], options: { file?: string; edit?: (text: string, dir: string) => string } = {}): Promise<{ port: number; child: Subprocess; errorLog: () => string; stop: () => Promise<void> }> {
  const nginx = requireTool("nginx");
  const dir = mkdtempSync(join(tmpdir(), "zonetime-nginx-"));
  const port = await freePort();
  const conf = join(dir, "nginx.conf");
  const text = nginxConfig(port, upstreams, options.file);
  writeFileSync(conf, options.edit ? options.edit(text, dir) : text);
  const child = Bun.spawn([nginx, "-p", dir, "-c", conf, "-e", join(dir, "error.log"), "-g", `daemon off; pid ${join(dir, "nginx.pid")}; error_log ${join(dir, "error.log")};`], { stdout: "inherit", stderr: "inherit" });
  for (const deadline = Date.now() + 10_000; ; await Bun.sleep(50)) {
    if (await fetch(`http://127.0.0.1:${port}/health/live`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nginx did not start:\n${readFileSync(join(dir, "error.log"), "utf8")}`);
  }
  const errorLog = () => readFileSync(join(dir, "error.log"), "utf8");
  return { port, child, errorLog, stop: async () => { child.kill("SIGTERM"); await child.exited; } };
}

export const DEPLOYMENT_DOC = join(ROOT, "docs", "deployment.md");

/** docs/deployment.md's "Beyond one machine" shell block: its text, the redis-server arguments, each replica's environment and the nginx command, as printed. */
export function documentedDeployment(): { block: string; redisArgs: string[]; replicas: Record<string, string>[]; nginxLine: string } {
  const doc = readFileSync(DEPLOYMENT_DOC, "utf8");
  const section = doc.slice(doc.indexOf("## Beyond one machine"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const sh = block.split("\n");
  const redisLine = sh.find((l) => l.startsWith("redis-server "))!;
  const redisArgs = redisLine.replace(/ &$/, "").split(" ").slice(1).map((a) => (a === '""' ? "" : a));
  const replicas = sh.filter((l) => l.includes("bun run start")).map((l) =>
    Object.fromEntries(l.split(" ").filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)])));
  const nginxLine = sh.find((l) => l.startsWith("nginx "))!;
  return { block, redisArgs, replicas, nginxLine };
}
