// HTTPS with a self-signed certificate the test makes with openssl: answers over TLS 1.2
// and 1.3, refuses TLS 1.1, offers TLS 1.2 only AEAD suites with forward secrecy (Mozilla's
// "intermediate" profile), sends HSTS, and the plain-HTTP port redirects to the configured
// public names only.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type Service } from "../../server/process/service.ts";
import { rawRequest, statusOf } from "../support/raw-http.ts";
import { testConfig } from "../support/test-server.ts";
import { freePort } from "../support/free-port.ts";

let service: Service;
let dir: string;

async function openssl(args: string[], input = ""): Promise<{ code: number; out: string }> {
  const child = Bun.spawn(["openssl", ...args], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  child.stdin.write(input);
  child.stdin.end();
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out: out + err };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "zonetime-tls-"));
  const made = await openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]);
  expect(made.code).toBe(0);
  service = await startServer(await testConfig({
    TLS_CERT: join(dir, "cert.pem"), TLS_KEY: join(dir, "key.pem"), HTTP_REDIRECT_PORT: String(await freePort()),
    PUBLIC_HOSTS: "time.example.org, 127.0.0.1, [::1]",
  }), { sharePort: false });
}, 60_000);
afterAll(() => {
  service?.server.stop(true);
  service?.redirect?.stop(true);
});

test("HTTPS answers, with HSTS", async () => {
  const r = await fetch(`https://127.0.0.1:${service.server.port}/timezone/Europe/London`, { tls: { ca: Bun.file(join(dir, "cert.pem")) } });
  expect(r.status).toBe(200);
  expect(r.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  expect(((await r.json()) as { timezone: string }).timezone).toBe("Europe/London");
  const err = await fetch(`https://127.0.0.1:${service.server.port}/timezone/Nope`, { tls: { ca: Bun.file(join(dir, "cert.pem")) } });
  expect(err.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
});

test("TLS 1.2 and 1.3 are accepted, TLS 1.1 is refused", async () => {
  const port = String(service.server.port);
  for (const version of ["-tls1_2", "-tls1_3"]) {
    const r = await openssl(["s_client", "-connect", `127.0.0.1:${port}`, version, "-brief"], "");
    expect(r.out).toMatch(/Protocol version: TLSv1\.[23]/);
  }
  const old = await openssl(["s_client", "-connect", `127.0.0.1:${port}`, "-tls1_1", "-brief", "-cipher", "DEFAULT@SECLEVEL=0"], "");
  expect(old.out).toContain("alert protocol version"); // the server says no to TLS 1.1
  expect(old.code).not.toBe(0);
}, 30_000);

test("TLS 1.2 offers only Mozilla's intermediate suites: AEAD with forward secrecy", async () => {
  const port = String(service.server.port);
  const handshake = (cipher: string) => openssl(["s_client", "-connect", `127.0.0.1:${port}`, "-tls1_2", "-cipher", cipher], "");
  for (const cipher of ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305"]) {
    const r = await handshake(cipher);
    expect({ cipher, code: r.code, negotiated: /Cipher is (\S+)/.exec(r.out)?.[1] }).toEqual({ cipher, code: 0, negotiated: cipher });
  }
  // CBC with SHA-1 or SHA-2, and RSA key exchange (no forward secrecy) even with GCM.
  for (const cipher of ["AES128-SHA", "AES256-SHA", "ECDHE-RSA-AES128-SHA", "ECDHE-RSA-AES256-SHA", "ECDHE-RSA-AES128-SHA256", "AES128-GCM-SHA256", "AES256-GCM-SHA384"]) {
    const r = await handshake(cipher);
    expect({ cipher, code: r.code, out: r.out }).toEqual({ cipher, code: 1, out: expect.stringContaining("handshake failure") });
  }
}, 30_000);

describe("the plain-HTTP port", () => {
  const redirect = (host: string | null, target = "/timezone/UTC?at=0") => rawRequest(service.redirect!.port!,
    `GET ${target} HTTP/1.1\r\n${host === null ? "" : `Host: ${host}\r\n`}Connection: close\r\n\r\n`);
  const location = (response: string) => /\r\nlocation: ([^\r]*)/i.exec(response)?.[1];

  test("redirects a configured name to HTTPS, keeping path and query, never cached", async () => {
    const r = await fetch(`http://127.0.0.1:${service.redirect!.port}/timezone/UTC?at=0`, { redirect: "manual" });
    expect(r.status).toBe(308);
    expect(r.headers.get("location")).toBe(`https://127.0.0.1:${service.server.port}/timezone/UTC?at=0`);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const hosts: [string, string][] = [["time.example.org", "time.example.org"], ["TIME.Example.ORG:80", "time.example.org"], ["time.example.org.", "time.example.org"], ["[::1]:8080", "[::1]"]];
    for (const [host, name] of hosts) {
      const response = await redirect(host);
      expect({ host, status: statusOf(response), location: location(response) })
        .toEqual({ host, status: 308, location: `https://${name}:${service.server.port}/timezone/UTC?at=0` });
    }
  });

  test("any other Host is sent to the canonical name (the first configured), never reflected", async () => {
    for (const host of ["evil.com", "evil.com:443", "time.example.org.evil.com", "10.0.0.1", "%%%", null]) {
      const response = await redirect(host, "/x?y=1");
      if (host === null) {
        expect(statusOf(response)).toBe(400); // HTTP/1.1 without Host: Bun's own 400
        continue;
      }
      expect({ host, status: statusOf(response), location: location(response) })
        .toEqual({ host, status: 308, location: `https://time.example.org:${service.server.port}/x?y=1` });
      expect(response).toMatch(/\r\ncache-control: no-store\r\n/i);
    }
    const old = await rawRequest(service.redirect!.port!, "GET /x HTTP/1.0\r\n\r\n");
    expect(location(old)).toBe(`https://time.example.org:${service.server.port}/x`);
  });
});
