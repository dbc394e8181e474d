// The address the site's snippets name. A page cannot know at build where it will be
// served, so each host in a snippet is written as <span data-origin>: the build fills it
// with SITE_URL when one is given (the public address; without JavaScript that is what a
// reader copies) or else the service's own default address, and the page's script
// (origin-fill.ts) replaces it with the origin the page was loaded from. A snippet copied
// from the page therefore runs against the service that served it, with no placeholder
// host anywhere in the site.

/** SITE_URL without a trailing slash, or the address `bun run start` listens on by default. */
export const BUILD_ORIGIN = (process.env.SITE_URL?.trim() || "http://localhost:8080").replace(/\/+$/, "");

const escapeHtml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** `origin` as a span the page's script rewrites; `part: "host"` for the host alone ("zonetime.example", no scheme). */
export const originSpan = (part: "origin" | "host" = "origin") =>
  `<span data-origin="${part}">${part === "host" ? BUILD_ORIGIN.replace(/^https?:\/\//, "") : BUILD_ORIGIN}</span>`;

/** Plain text as HTML, every BUILD_ORIGIN in it made a span the page fills with its own origin. */
export function textWithOrigin(text: string): string {
  return text.split(BUILD_ORIGIN).map(escapeHtml).join(originSpan());
}

/** HTML (a guide's body) with every BUILD_ORIGIN in it made a span the page fills with its own origin. */
export function htmlWithOrigin(html: string): string {
  return html.split(BUILD_ORIGIN).join(originSpan());
}

/**
 * A guide's body as its page shows it: the commands in its code blocks are written with
 * host-less paths (`curl '/clock?...'`, `fetch("/timezone/...")`, which the API tests read
 * as they are), so the page puts the origin in front of each, and makes every BUILD_ORIGIN
 * one the page fills too. Prose paths (`<code>/timezone/{name}</code>`) stay paths.
 */
export function guideHtmlWithOrigin(html: string): string {
  const withHosts = html.replace(/<pre data-run="(shell|js)"><code>[\s\S]*?<\/code><\/pre>/g, (block) =>
    block
      // In a curl line, each argument that is a path (/x or '/x) gets the host.
      .split("\n")
      .map((line) => (/^(<pre[^>]*><code>)?curl /.test(line) ? line.replace(/(\s'?)\/(?=[A-Za-z])/g, `$1${BUILD_ORIGIN}/`) : line))
      .join("\n")
      .replace(/fetch\((["`])\//g, `fetch($1${BUILD_ORIGIN}/`));
  // Focusable, so that a keyboard can scroll a block wider than the screen.
  return htmlWithOrigin(withHosts).replaceAll("<pre data-run=", '<pre tabindex="0" data-run=');
}
