// Runs test/support/zoneinfo-reference.py: Python's zoneinfo, with its PEP 495 `fold`,
// on TZif files compiled by the machine's zic, as the reference for local-time conversion.

import { join } from "node:path";

export type LocalQuery = [name: string, year: number, month: number, day: number, hour: number, minute: number, second: number];

export interface ZoneinfoAnswer {
  fold0: number;
  fold1: number;
  kind: "unique" | "skipped" | "repeated";
}

export async function zoneinfoInstants(tzdir: string, queries: LocalQuery[]): Promise<ZoneinfoAnswer[]> {
  const python = Bun.which("python3");
  if (!python) throw new Error("python3 is not installed: the conversion reference test needs it (Debian: python3)");
  const child = Bun.spawn([python, join(import.meta.dir, "zoneinfo-reference.py")], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  child.stdin.write(JSON.stringify({ tzdir, queries }));
  await child.stdin.end();
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`zoneinfo reference failed: ${stderr}`);
  return (JSON.parse(stdout) as [number, number, ZoneinfoAnswer["kind"]][]).map(([fold0, fold1, kind]) => ({ fold0, fold1, kind }));
}
