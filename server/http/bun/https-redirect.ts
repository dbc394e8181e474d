// The plain-HTTP port's one answer: 308 to the same path and query over HTTPS, on a name
// the operator configured (PUBLIC_HOSTS). A request whose Host is one of those names keeps
// it; any other Host (an IP address, a stranger's name, garbage) is sent to the canonical
// name, the first configured, as nginx's default_server with `return 308
// https://canonical$request_uri` does. The Host header is never copied into the Location.
// The answer depends on a request header and on configuration, so it is never stored.

import { parseIpv4, parseIpv6 } from "../../ip/address.ts";
import { requestTarget } from "../pipeline/request-target.ts";

/** The configured names, lowercase, without a trailing dot; IPv6 in brackets. The first is canonical. */
export type PublicHosts = readonly string[];

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name (RFC 1123), an IPv4 address or a bracketed IPv6 address, normalised; null if it is none. */
export function normaliseHost(text: string): string | null {
  const host = text.trim().toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) return parseIpv6(host.slice(1, -1)) ? host : null;
  if (/^[0-9.]+$/.test(host)) return parseIpv4(host) === null ? null : host;
  if (host.length === 0 || host.length > 253) return null;
  return host.split(".").every((label) => DNS_LABEL.test(label)) ? host : null;
}

/** PUBLIC_HOSTS: comma-separated names; `{ bad }` names the first entry that is no host. */
export function parsePublicHosts(text: string): { hosts: string[] } | { bad: string } {
  const hosts: string[] = [];
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const host = normaliseHost(entry);
    if (host === null) return { bad: entry.trim() };
    if (!hosts.includes(host)) hosts.push(host);
  }
  return { hosts };
}

/** The name part of a Host header value (`name`, `name:port`, `[v6]:port`), lowercase, without a trailing dot. */
function hostName(header: string): string {
  const end = header.startsWith("[") ? header.indexOf("]") + 1 : header.indexOf(":");
  const name = (end > 0 ? header.slice(0, end) : header).toLowerCase();
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** The plain-HTTP port's fetch handler: `hosts` must hold at least one name. */
export function httpsRedirect(hosts: PublicHosts, httpsPort: number): (req: Request) => Response {
  const known = new Set(hosts);
  const canonical = hosts[0]!;
  const port = httpsPort === 443 ? "" : `:${httpsPort}`;
  return (req) => {
    const header = req.headers.get("host");
    const asked = header === null ? null : hostName(header);
    const host = asked !== null && known.has(asked) ? asked : canonical;
    const { path, query } = requestTarget(req.url);
    return new Response(null, {
      status: 308,
      headers: {
        Location: `https://${host}${port}${path}${query ? `?${query}` : ""}`,
        "Cache-Control": "no-store",
        "Access-Control-Allow-Origin": "*",
        "X-Content-Type-Options": "nosniff",
      },
    });
  };
}
