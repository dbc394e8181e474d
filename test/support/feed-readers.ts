// Two real feed readers for the tzdb feeds: Python's feedparser (Debian's
// python3-feedparser, Atom) and Go's gofeed (Debian's golang-github-mmcdole-gofeed-dev,
// Atom and JSON Feed), built offline in GOPATH mode as the dialects' Go client is.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireTool } from "./zic-reference.ts";

export interface ReadFeed {
  version: string;
  /** feedparser's bozo flag: any problem it saw (XML not well-formed, a wrong content type...). */
  bozo: boolean;
  bozoException: string | null;
  title: string;
  entries: { title: string; link: string; updated: string; content: string }[];
}

const FEEDPARSER = `
import json, sys, feedparser
d = feedparser.parse(sys.stdin.buffer.read(), response_headers={"content-location": sys.argv[1], "content-type": sys.argv[2]})
print(json.dumps({"version": d.version, "bozo": bool(d.bozo), "bozoException": str(d.get("bozo_exception")) if d.bozo else None,
  "title": d.feed.get("title", ""),
  "entries": [{"title": e.get("title", ""), "link": e.get("link", ""), "updated": e.get("updated", ""),
               "content": (e.get("content") or [{"value": ""}])[0]["value"]} for e in d.entries]}))
`;

/** feedparser reading `body` as served from `url` with `contentType`. */
export function feedparser(body: string, url: string, contentType: string): ReadFeed {
  const r = Bun.spawnSync(["/usr/bin/python3", "-c", FEEDPARSER, url, contentType], { stdin: new TextEncoder().encode(body), stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`feedparser: ${r.stderr.toString()} (Debian: python3-feedparser)`);
  return JSON.parse(r.stdout.toString());
}

let gofeedBinary: string | null = null;

export function buildGofeed(): string {
  if (gofeedBinary) return gofeedBinary;
  const go = requireTool("go");
  if (!existsSync("/usr/share/gocode/src/github.com/mmcdole/gofeed")) throw new Error("gofeed is missing: run scripts/bootstrap.sh --test");
  const root = mkdtempSync(join(tmpdir(), "zonetime-gofeed-"));
  mkdirSync(join(root, "src", "zonetime", "feedreader"), { recursive: true });
  copyFileSync(join(import.meta.dir, "go-feed-reader", "main.go"), join(root, "src", "zonetime", "feedreader", "main.go"));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GOPATH: `${root}:/usr/share/gocode`, GO111MODULE: "off", GOPROXY: "off", GOFLAGS: "", GOCACHE: join(root, "cache") };
  const build = Bun.spawnSync([go, "build", "-o", join(root, "feedreader"), "zonetime/feedreader"], { cwd: root, env, stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`go build: ${build.stderr.toString()}`);
  gofeedBinary = join(root, "feedreader");
  return gofeedBinary;
}

/** gofeed reading `body`: its feed type and items; a parse error throws. */
export function gofeed(body: string): { type: string; version: string; title: string; items: { title: string; link: string; published: string; content: string }[] } {
  const file = join(mkdtempSync(join(tmpdir(), "zonetime-feed-")), "feed");
  writeFileSync(file, body);
  const r = Bun.spawnSync([buildGofeed(), file], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`gofeed: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString());
}
