// Done-when 1, TimeZoneDB: npm `timezonedb`'s own spec suite (jdforsythe/timezonedb, its
// mocha + sinon specs at the mirrored commit, devDependencies as its yarn.lock pins them, run
// by Node as its `npm test` does) against our server instead of api.timezonedb.com. The npm
// tarball leaves src/ and the specs out, so this needs the mirror (../shared/mirrors on CI).
//
// The suite stubs the network with sinon. Run as written it never leaves the process, so the
// stubs become pass-through spies and the real requests reach us. What is changed, and why:
//   1. Host: api specs take it from the package's own settings (TZDB_API_HOST, TZDB_API_PORT);
//      request.spec.ts names `abc.host.com:1234`, replaced by ours. HTTPS as the specs ask
//      (https: true), with a throwaway certificate trusted through NODE_EXTRA_CA_CERTS.
//   2. `sinon.stub(x, 'f').resolves(canned)` / `.rejects(canned)` -> `sinon.spy(x, 'f')`: the
//      calledWith / baseUrl assertions read the spy's record as they read the stub's; the
//      answer is ours, not the canned one.
//   3. request.spec.ts's `basePath: '/v9.9'` -> '/v2.1' and its request gains `by: 'zone'`:
//      a made-up API version, and a request without `by`, which TimeZoneDB documents as
//      required and we answer FAILED: only the stub's canned {status:'OK'} let it pass.
//   4. The two tests whose stub stood for a failure get a request that really fails: the
//      FAILED one asks for an unknown zone; the "request throws" one keeps the spec's own
//      made-up base path /v9.9, which we answer with a 404 (got throws, as the stub did).
//   5. Run without --bail (to count every test), with mocha's timeout raised from 2 s to 20 s
//      (real requests on a loaded 2-core machine, where the stubs answered in-process), and
//      with TS_NODE_TRANSPILE_ONLY: a SinonSpy is not assignable to the SinonStub-typed
//      field, a compile-time matter only.
// request.spec.ts asks for http and https on the one port; a small demultiplexer on that port
// hands TLS handshakes to our HTTPS server and the rest to our HTTP server.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../../server/process/service.ts";
import { requireTool } from "../../support/require-tool.ts";
import { startTestServer, testConfig } from "../../support/test-server.ts";
import { mirrorCheckout, skipMessage, skipWithoutMirror } from "../../support/third-party.ts";

const REPO = "jdforsythe/timezonedb";
/** Outside CI a machine without the mirror skips; under CI=true the suite runs and fails without it. */
const mirrored = !skipWithoutMirror(REPO);

/** [file, exact text in the spec, replacement]: each must occur exactly once. */
function edits(port: number): [string, string, string][] {
  const spy = (target: string, fn: string, rest: string): [string, string] => [`sinon.stub(${target}, '${fn}')${rest}`, `sinon.spy(${target}, '${fn}');`];
  const api = (file: string): [string, string, string] => [file, ...spy("request", "tzdbRequest", ".resolves(<any> this.exampleResponse);")];
  return [
    api("src/api/convert-time-zone.spec.ts"), api("src/api/list-time-zones.spec.ts"),
    ["src/request.spec.ts", "host: 'abc.host.com',\n    port: 1234,\n    basePath: '/v9.9',", `host: '127.0.0.1',\n    port: ${port},\n    basePath: '/v2.1',`],
    ["src/request.spec.ts", "req: { zone: 'America/New_York' },", "req: { by: 'zone', zone: 'America/New_York' },"],
    ["src/request.spec.ts", ...spy("got", "get", ".resolves(this.exampleResponse);")],
    ["src/request.spec.ts", ...spy("got", "get", ".resolves(res);")],
    ["src/request.spec.ts", "await tzdbRequest(this.config, this.req);\n\n      expect('Should have failed').to.be.false;\n    }\n    catch (ex) {\n      expect(ex instanceof ApiRequestError)",
      "await tzdbRequest(this.config, { ...this.req, req: { by: 'zone', zone: 'Nowhere/Land' } });\n\n      expect('Should have failed').to.be.false;\n    }\n    catch (ex) {\n      expect(ex instanceof ApiRequestError)"],
    ["src/request.spec.ts", ...spy("got", "get", ".rejects(new HttpRequestError(new Error('Fake error')));")],
    ["src/request.spec.ts", "await tzdbRequest(this.config, this.req);\n\n      expect('Should have failed').to.be.false;\n    }\n    catch (ex) {\n      expect(ex instanceof HttpRequestError)",
      "await tzdbRequest({ ...this.config, basePath: '/v9.9' }, this.req);\n\n      expect('Should have failed').to.be.false;\n    }\n    catch (ex) {\n      expect(ex instanceof HttpRequestError)"],
  ];
}

/** One port for both schemes: a TLS ClientHello starts with byte 0x16, plain HTTP with a letter. */
function demultiplex(httpPort: number, httpsPort: number): Promise<Server> {
  const server = createServer((socket) => {
    socket.once("data", (first) => {
      const upstream = createConnection({ host: "127.0.0.1", port: first[0] === 0x16 ? httpsPort : httpPort }, () => {
        upstream.write(first);
        socket.pipe(upstream).pipe(socket);
      });
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let http: Awaited<ReturnType<typeof startTestServer>> | undefined;
let https: { stop: (force: boolean) => void; port?: number } | undefined;
let both: Server | undefined;
afterAll(() => {
  both?.close();
  https?.stop(true);
  http?.stop();
});

describe("npm timezonedb's own spec suite", () => {
  let dir = "";
  let port = 0;
  let ca = "";
  beforeAll(async () => {
    if (!mirrored) return;
    const openssl = requireTool("openssl");
    const certs = mkdtempSync(join(tmpdir(), "zonetime-tzdb-spec-"));
    ca = join(certs, "cert.pem");
    const made = Bun.spawnSync([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(certs, "key.pem"), "-out", ca]);
    if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr.toString()}`);
    http = await startTestServer({ RATE_LIMIT: "off" });
    ({ server: https } = await startServer(await testConfig({ TLS_CERT: ca, TLS_KEY: join(certs, "key.pem"), RATE_LIMIT: "off" }), { sharePort: false }));
    both = await demultiplex(http.port, https!.port!);
    port = (both.address() as { port: number }).port;
    dir = mirrorCheckout(REPO);
    // Its devDependencies (exact pins) and lockfile, from the npm registry.
    const install = Bun.spawnSync([process.execPath, "install", "--no-save", "--silent"], { cwd: dir, env: { ...process.env, BUN_INSTALL_CACHE_DIR: join(tmpdir(), "zonetime-npm-cache") } });
    if (install.exitCode !== 0) throw new Error(`installing ${REPO}'s devDependencies from npm failed: ${install.stderr.toString()}`);
  }, 180_000);

  test.skipIf(!mirrored)(`its 19 specs pass with only the host changed and stubs made spies ${mirrored ? "" : `(skipped: ${skipMessage(REPO)})`}`, async () => {
    const node = requireTool("node");
    for (const [file, from, to] of edits(port)) {
      const text = await Bun.file(join(dir, file)).text();
      expect({ file, from, count: text.split(from).length - 1 }).toEqual({ file, from, count: 1 });
      await Bun.write(join(dir, file), text.replace(from, to));
    }
    // get-time-zone.spec.ts has two suites, each with the same stub line.
    const getSpec = join(dir, "src/api/get-time-zone.spec.ts");
    const getText = await Bun.file(getSpec).text();
    const stub = "sinon.stub(request, 'tzdbRequest').resolves(<any> this.exampleResponse);";
    expect(getText.split(stub).length - 1).toBe(2);
    await Bun.write(getSpec, getText.replaceAll(stub, "sinon.spy(request, 'tzdbRequest');"));
    const left = Bun.spawnSync(["grep", "-rn", "sinon.stub", join(dir, "src")]).stdout.toString();
    expect(left).toBe("");

    // mocha.opts without --bail, the JSON reporter to count.
    const run = Bun.spawn([node, "node_modules/.bin/mocha", "--require", "ts-node/register", "--require", "source-map-support/register", "--ui", "mocha-typescript",
      "--full-trace", "--timeout", "20000", "--reporter", "json", "src/**/*.spec.ts"], {
      cwd: dir, stdout: "pipe", stderr: "pipe",
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true", NODE_EXTRA_CA_CERTS: ca, TZDB_API_HOST: "127.0.0.1", TZDB_API_PORT: String(port) },
    });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    const report = JSON.parse(out) as { stats: { tests: number; passes: number; failures: number }; failures: { fullTitle: string; err: { message: string } }[] };
    expect({ failures: report.failures.map((f) => `${f.fullTitle}: ${f.err.message}`), stderr: err }).toEqual({ failures: [], stderr: "" });
    expect(report.stats).toMatchObject({ tests: 19, passes: 19, failures: 0 });
  }, 120_000);
});
