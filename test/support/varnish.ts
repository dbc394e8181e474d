// Varnish started by a test with the repository's own VCL (server/deploy/varnish.vcl), its
// backends' ports set to the test's replicas, on a free port and a work folder of its own
// (varnishd's -n: two runs on one machine never share one).

import type { Subprocess } from "bun";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { requireTool } from "./require-tool.ts";
import { ROOT } from "./test-server.ts";

export const VARNISH_VCL = join(ROOT, "server", "deploy", "varnish.vcl");

/** varnishd's arguments as docs/shared-caches.md gives them (the VCL's path relative to the repository), but the listening address. */
export const VARNISHD_ARGS = ["-F", "-f", "server/deploy/varnish.vcl", "-s", "malloc,256m"];

/** The shipped VCL with only its backends' ports replaced: one per replica, as many as it ships. */
export function varnishVcl(ports: number[]): string {
  const text = readFileSync(VARNISH_VCL, "utf8");
  const found = text.match(/\.port = "\d+";/g) ?? [];
  if (found.length !== ports.length) throw new Error(`${VARNISH_VCL}: ${found.length} backends, the test has ${ports.length} replicas`);
  let next = 0;
  return text.replace(/\.port = "\d+";/g, () => `.port = "${ports[next++]}";`);
}

export interface Varnish {
  port: number;
  child: Subprocess;
  output: () => string;
  stop: () => Promise<void>;
}

/** `edit`: what the test changes in the VCL besides the ports. */
export async function startVarnish(replicaPorts: number[], edit: (vcl: string) => string = (vcl) => vcl): Promise<Varnish> {
  const varnishd = requireTool("varnishd");
  // Started as root, varnishd reads the VCL and works as its own users (varnish, vcache):
  // a folder they can enter, not the test run's private temporary one.
  const dir = mkdtempSync(join("/tmp", "zonetime-varnish-"));
  chmodSync(dir, 0o755);
  const vcl = join(dir, "varnish.vcl");
  writeFileSync(vcl, edit(varnishVcl(replicaPorts)), { mode: 0o644 });
  const port = await freePort();
  const args = VARNISHD_ARGS.map((a) => (a === "server/deploy/varnish.vcl" ? vcl : a));
  const child = Bun.spawn([varnishd, ...args, "-a", `127.0.0.1:${port}`, "-n", join(dir, "work")], { stdout: "pipe", stderr: "pipe" });
  let text = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += new TextDecoder().decode(chunk);
  };
  void collect(child.stdout).catch(() => {});
  void collect(child.stderr).catch(() => {});
  // Up once a request goes through to a replica (the probes have found one ready).
  for (const deadline = Date.now() + 30_000; ; await Bun.sleep(100)) {
    if (await fetch(`http://127.0.0.1:${port}/health/live`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`varnishd did not start:\n${text}`);
    }
  }
  return {
    port,
    child,
    output: () => text,
    stop: async () => {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
