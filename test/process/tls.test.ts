// HTTPS with a self-signed certificate the test makes with openssl: answers over TLS 1.2
// and 1.3, refuses TLS 1.1, sends HSTS, and the plain-HTTP port redirects.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type Service } from "../../server/process/service.ts";
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
  }));
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

test("the plain-HTTP port redirects to HTTPS, keeping path and query", async () => {
  const r = await fetch(`http://127.0.0.1:${service.redirect!.port}/timezone/UTC?at=0`, { redirect: "manual" });
  expect(r.status).toBe(308);
  expect(r.headers.get("location")).toBe(`https://127.0.0.1:${service.server.port}/timezone/UTC?at=0`);
});
