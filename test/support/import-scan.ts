// Every relative import of our own code, as TypeScript's own pre-processor lists them
// (type-only, multi-line, dynamic and re-exports included; .astro frontmatter and scripts
// too), resolved to the repo-relative file it names. The layering test and the cycle test
// read the same scan, so they agree on what an import is.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export const ROOT = resolve(import.meta.dir, "..", "..");

export interface Import {
  /** The importing file, repo-relative. */
  from: string;
  /** The imported file, repo-relative (relative specifiers only; packages are not ours). */
  to: string;
  /** `?raw` and the like: the file's text, not its module; it runs nothing, so it closes no cycle. */
  textOnly: boolean;
}

const CODE = /\.(ts|tsx|mts|mjs|js|astro)$/;

/** Every code file under `folder` (absolute), skipping dependencies and build output. */
export function* codeFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const full = join(folder, entry.name);
    if (entry.isDirectory()) yield* codeFiles(full);
    else if (CODE.test(entry.name)) yield full;
  }
}

export const rel = (full: string) => relative(ROOT, full).split(sep).join("/");

// The site's Astro pages import "../lib/data" without an extension, as Vite resolves it.
const EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".mjs", ".astro"];
function resolveFile(path: string): string {
  if (existsSync(path) && statSync(path).isFile()) return path;
  for (const ext of EXTENSIONS) if (existsSync(path + ext)) return path + ext;
  for (const ext of EXTENSIONS) if (existsSync(join(path, "index" + ext))) return join(path, "index" + ext);
  return path;
}

/** Every relative import in `file`, resolved to a repo-relative path. */
export function importsOf(file: string, source = readFileSync(file, "utf8")): Import[] {
  // .astro: the frontmatter and scripts are TypeScript; the pre-processor reads past the markup.
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => ({
      from: rel(file),
      to: rel(resolveFile(resolve(dirname(file), spec.replace(/\?.*$/, "")))),
      textOnly: spec.includes("?"),
    }));
}

/** Every import of every code file under the given repo-relative folders. */
export function importsUnder(...folders: string[]): Import[] {
  return folders.flatMap((folder) => [...codeFiles(join(ROOT, folder))].flatMap((f) => importsOf(f)));
}
