// Done-when 1 for Google: the official SDKs pointed at a real server through their own
// base-URL options, each reading every field it reads from Google:
//
// - JavaScript: @googlemaps/google-maps-services-js 3.4.2 from the npm registry, its per-call `url`.
// - Python: googlemaps/google-maps-services-python, `Client(key=, base_url=)` (the key must
//   start with "AIza": the SDK refuses others before sending; we accept any key). Its one
//   dependency is requests (setup.py), Debian's python3-requests; the SDK itself is in neither
//   Debian nor npm, so it runs from the mirror (../shared/mirrors on CI).
// - Go: googlemaps/google-maps-services-go, `maps.WithBaseURL`, through the small program in
//   ../../support/go-sdk-client/main.go, built here from the SDK's mirror: no Go module proxy
//   answers here or in CI, so GOPATH mode with GOPROXY=off, and every dependency from Debian:
//   golang-go (1.19), golang-github-google-uuid-dev, golang-golang-x-time-dev and
//   golang-go.opencensus-dev (0.24.0; the SDK's go.mod asks for 0.22.3 or newer).
// - Java: googlemaps/google-maps-services-java, `GeoApiContext.Builder().baseUrlOverride()`,
//   compiled with javac against Debian's jars (libokhttp-java, libgoogle-gson-java,
//   libopencensus-java, libslf4j-java, libjetbrains-annotations-java), unmodified, at
//   JAVA_SDK_COMMIT: the newest commit that compiles against Debian's OkHttp 3.13. The next one
//   (74dee5d3, "update gradle and build dependencies") moved to OkHttp 4's
//   RequestBody.create(String, MediaType); from there to the mirror's HEAD src/main/ differs
//   only in that line (the POST path, which the Time Zone call never takes) and javadoc. Not
//   compiled: the App Engine handler (Gae*.java, compileOnly upstream).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cldrCanonical } from "../../support/cldr-canonical.ts";
import { requireTool } from "../../support/require-tool.ts";
import { startTestServer } from "../../support/test-server.ts";
import { mirrorCheckout, mirrorGitDir, npmInstall, skipMessage, skipWithoutMirror } from "../../support/third-party.ts";

const PYTHON_SDK = "googlemaps/google-maps-services-python";
const JAVA_SDK = "googlemaps/google-maps-services-java";
const JAVA_SDK_COMMIT = "71444e940bb4a761fc129e77d23a147a72698bbc";
const JAVA_JARS = ["okhttp", "okio", "gson", "opencensus-api", "slf4j-api", "grpc-context", "org.jetbrains.annotations-java8"].map((jar) => `/usr/share/java/${jar}.jar`);
const GO_SDK = "googlemaps/google-maps-services-go";
const GO_DEPS = ["github.com/google/uuid", "golang.org/x/time/rate", "go.opencensus.io"];

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: "off" });
}, 120_000);
afterAll(() => server?.stop());

/** Places and instants: DST and not, both hemispheres, a half-hour zone, before 1970, and a fraction. */
const CASES: [number, number, number][] = [
  [39.603481, -119.682251, 1331161200], [51.5074, -0.1278, 1751234567], [-33.8688, 151.2093, 1700000000],
  [19.076, 72.8777, 1700000000], [53.3498, -6.2603, 1737000000], [40.7128, -74.006, -300000000],
];

async function expected(lat: number, lng: number, at: number) {
  const spec = (await (await fetch(`${server.url}/coordinates/${lat},${lng}?at=${at}&lang=en`)).json()) as { timezone: string; raw_offset: number; dst_offset: number; timezone_name: string };
  return { status: "OK", timeZoneId: cldrCanonical(spec.timezone), rawOffset: spec.raw_offset, dstOffset: spec.dst_offset, timeZoneName: spec.timezone_name };
}

/** What we answer a latitude out of range: INVALID_REQUEST with its errorMessage. */
async function refusal(): Promise<{ status: string; errorMessage: string }> {
  const body = (await (await fetch(`${server.url}/maps/api/timezone/json?location=95,0&timestamp=0&key=AIzaAnyKeyWorks`)).json()) as { status: string; errorMessage: string };
  expect(body.status).toBe("INVALID_REQUEST");
  return body;
}

/** The Go client built from the SDK's mirror and Debian's Go packages, in GOPATH mode, offline. */
function buildGoClient(): string {
  const go = requireTool("go");
  for (const dir of GO_DEPS) {
    if (!existsSync(`/usr/share/gocode/src/${dir}`)) throw new Error(`/usr/share/gocode/src/${dir} is missing: run scripts/bootstrap.sh --test`);
  }
  const root = mkdtempSync(join(tmpdir(), "zonetime-go-sdk-"));
  const clone = Bun.spawnSync(["git", "clone", "-q", mirrorGitDir(GO_SDK), join(root, "src", "googlemaps.github.io", "maps")], { stderr: "pipe" });
  if (clone.exitCode !== 0) throw new Error(`clone ${GO_SDK}: ${clone.stderr.toString()}`);
  mkdirSync(join(root, "src", "zonetime", "client"), { recursive: true });
  copyFileSync(join(import.meta.dir, "../../support/go-sdk-client/main.go"), join(root, "src", "zonetime", "client", "main.go"));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, GOPATH: `${root}:/usr/share/gocode`, GO111MODULE: "off", GOPROXY: "off", GOFLAGS: "", GOCACHE: join(root, "cache") };
  const build = Bun.spawnSync([go, "build", "-o", join(root, "client"), "zonetime/client"], { cwd: root, env, stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`go build: ${build.stderr.toString()}`);
  return join(root, "client");
}

describe("Google Time Zone SDKs", () => {
  test("JavaScript SDK 3.4.2 (installed from npm): timezone() with url", async () => {
    const dir = npmInstall({ "@googlemaps/google-maps-services-js": "3.4.2" });
    const { Client, Status } = await import(`${dir}/node_modules/@googlemaps/google-maps-services-js/dist/index.js`);
    const client = new Client({});
    for (const [lat, lng, at] of CASES) {
      const response = await client.timezone({ params: { location: { lat, lng }, timestamp: at, key: "any-key-at-all" }, url: `${server.url}/maps/api/timezone/json` });
      const { status, timeZoneId, rawOffset, dstOffset, timeZoneName } = response.data;
      expect({ lat, status, timeZoneId, rawOffset, dstOffset, timeZoneName }).toEqual({ lat, ...(await expected(lat, lng, at)) });
      expect(status).toBe(Status.OK);
    }
    // A Date as timestamp (the SDK serializes it to seconds); INVALID_REQUEST, which the SDK's adapter turns into an HTTP 400 error of its own.
    const now = await client.timezone({ params: { location: "48.8566,2.3522", timestamp: new Date(), key: "k" }, url: `${server.url}/maps/api/timezone/json` });
    expect(now.data.timeZoneId).toBe("Europe/Paris");
    const bad = await client.timezone({ params: { location: "95,0", timestamp: 0, key: "k" }, url: `${server.url}/maps/api/timezone/json` })
      .then(() => null, (error: { response: { data: { status: string; errorMessage: unknown } } }) => error.response.data);
    expect(bad).toEqual(await refusal());
  }, 120_000);

  test.skipIf(skipWithoutMirror(PYTHON_SDK))(`Python SDK: Client(base_url=)${skipWithoutMirror(PYTHON_SDK) ? ` (skipped: ${skipMessage(PYTHON_SDK)})` : ""}`, async () => {
    const python = requireTool("python3");
    const dir = mirrorCheckout(PYTHON_SDK);
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
import googlemaps
client = googlemaps.Client(key="AIzaAnyKeyWorks", base_url=${JSON.stringify(server.url)})
out = [client.timezone((lat, lng), timestamp=at) for lat, lng, at in json.loads(sys.argv[1])]
try:
    client.timezone((95, 0), timestamp=0)
    out.append("no error")
except googlemaps.exceptions.ApiError as e:
    out.append([e.status, e.message])
print(json.dumps(out))
`;
    const run = Bun.spawn([python, "-c", script, JSON.stringify(CASES)], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const results = JSON.parse(out);
    for (const [i, [lat, lng, at]] of CASES.entries()) {
      const { status, timeZoneId, rawOffset, dstOffset, timeZoneName } = results[i];
      expect({ lat, status, timeZoneId, rawOffset, dstOffset, timeZoneName }).toEqual({ lat, ...(await expected(lat, lng, at)) });
    }
    // The SDK reads status, and the message from `error_message`, a key of other Google APIs:
    // the Time Zone API's own is `errorMessage` (Google's wire and ours), so it reads None.
    expect(results[CASES.length]).toEqual([(await refusal()).status, null]);
  }, 60_000);

  test.skipIf(skipWithoutMirror(GO_SDK))(`Go SDK: maps.WithBaseURL, built offline${skipWithoutMirror(GO_SDK) ? ` (skipped: ${skipMessage(GO_SDK)})` : ""}`, async () => {
    const client = buildGoClient();
    const run = Bun.spawn([client, server.url, ...CASES.flat().map(String), "95", "0", "0"], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const results = JSON.parse(out);
    for (const [i, [lat, lng, at]] of CASES.entries()) {
      const { dstOffset, rawOffset, timeZoneId, timeZoneName } = results[i];
      const { status: _, ...want } = await expected(lat, lng, at);
      expect({ lat, timeZoneId, rawOffset, dstOffset, timeZoneName }).toEqual({ lat, ...want });
    }
    // It reads status and `error_message` (not the Time Zone API's `errorMessage`, so empty).
    expect(results[CASES.length]).toEqual({ error: `maps: ${(await refusal()).status} - ` });
  }, 120_000);

  test.skipIf(skipWithoutMirror(JAVA_SDK))(`Java SDK: GeoApiContext baseUrlOverride${skipWithoutMirror(JAVA_SDK) ? ` (skipped: ${skipMessage(JAVA_SDK)})` : ""}`, async () => {
    const javac = requireTool("javac");
    const java = requireTool("java");
    for (const jar of JAVA_JARS) if (!existsSync(jar)) throw new Error(`${jar} is missing: run scripts/bootstrap.sh --test`);
    const dir = mirrorCheckout(JAVA_SDK);
    expect(Bun.spawnSync(["git", "-C", dir, "checkout", "-q", JAVA_SDK_COMMIT]).exitCode).toBe(0);
    const files = [...new Bun.Glob("src/main/java/**/*.java").scanSync({ cwd: dir })].filter((f) => !/\/Gae[^/]*\.java$/.test(f)).map((f) => `${dir}/${f}`);
    // The driver: what an app does with the SDK, one line per point (TimeZoneApi sends timestamp=0 and reads timeZoneId).
    await Bun.write(`${dir}/driver/Driver.java`, `import com.google.maps.*; import com.google.maps.model.LatLng; import com.google.maps.errors.ApiException;
public class Driver { public static void main(String[] a) throws Exception {
  GeoApiContext ctx = new GeoApiContext.Builder().apiKey("AIzaAnyKeyWorks").baseUrlOverride(a[0]).maxRetries(0).build();
  for (int i = 1; i + 1 < a.length; i += 2) System.out.println(TimeZoneApi.getTimeZone(ctx, new LatLng(Double.parseDouble(a[i]), Double.parseDouble(a[i + 1]))).await().getID());
  try { TimeZoneApi.getTimeZone(ctx, new LatLng(95, 0)).await(); System.out.println("no error"); } catch (ApiException e) { System.out.println(e.getClass().getSimpleName() + ": " + e.getMessage()); }
  ctx.shutdown(); } }`);
    const classpath = JAVA_JARS.join(":");
    const build = Bun.spawnSync([javac, "-nowarn", "-d", `${dir}/classes`, "-cp", classpath, ...files, `${dir}/driver/Driver.java`], { stderr: "pipe" });
    expect(build.stderr.toString().split("\n").filter((l) => l.includes("error"))).toEqual([]);
    const points = CASES.map(([lat, lng]): [number, number] => [lat, lng]);
    const run = Bun.spawn([java, "-cp", `${dir}/classes:${classpath}`, "Driver", server.url, ...points.flat().map(String)], { stdout: "pipe", stderr: "pipe" });
    const [out] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    const lines = out.trim().split("\n");
    for (const [i, [lat, lng]] of points.entries()) expect({ lat, id: lines[i] }).toEqual({ lat, id: (await expected(lat, lng, 0)).timeZoneId });
    // The three fields it reads: status (as the exception's class), errorMessage (its message), timeZoneId.
    expect(lines[points.length]).toBe(`InvalidRequestException: ${(await refusal()).errorMessage}`);
  }, 120_000);
});
