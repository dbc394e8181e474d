// Done-when 1 for Google: the official SDKs pointed at a real server through their own
// base-URL options, each reading every field it reads from Google:
//
// - JavaScript: @googlemaps/google-maps-services-js 3.4.2 from the npm registry, its per-call `url`.
// - Python: googlemaps/google-maps-services-python, `Client(key=, base_url=)` (the key must
//   start with "AIza": the SDK refuses others before sending; we accept any key).
// - Go: googlemaps/google-maps-services-go, `maps.WithBaseURL`, through the small program in
//   ../../support/go-sdk-client/main.go. No Go module proxy answers here or in CI, so it is
//   built by hand in GOPATH mode with Debian's golang-go, golang-github-google-uuid-dev and
//   golang-golang-x-time-dev, the SDK and census-instrumentation/opencensus-go from mirrors:
//     GOPATH=$G:/usr/share/gocode GO111MODULE=off go build -o client $G/src/zonetime/client
//   (with the SDK at $G/src/googlemaps.github.io/maps, opencensus at $G/src/go.opencensus.io),
//   and runs when GO_SDK_CLIENT names that binary.
// - Java: googlemaps/google-maps-services-java, `GeoApiContext.Builder().baseUrlOverride()`,
//   compiled with javac against Debian's jars (libokhttp-java, libgoogle-gson-java,
//   libopencensus-java, libslf4j-java, libjetbrains-annotations-java), unmodified, at
//   JAVA_SDK_COMMIT: the newest commit that compiles against Debian's OkHttp 3.13. The next one
//   (74dee5d3, "update gradle and build dependencies") moved to OkHttp 4's
//   RequestBody.create(String, MediaType); from there to the mirror's HEAD src/main/ differs
//   only in that line (the POST path, which the Time Zone call never takes) and javadoc. Not
//   compiled: the App Engine handler (Gae*.java, compileOnly upstream).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { cldrCanonical } from "../../support/cldr-canonical.ts";
import { requireTool } from "../../support/require-tool.ts";
import { startTestServer } from "../../support/test-server.ts";
import { mirrorCheckout, mirrorRepo, npmInstall, skipMessage } from "../../support/third-party.ts";

const PYTHON_SDK = "googlemaps/google-maps-services-python";
const JAVA_SDK = "googlemaps/google-maps-services-java";
const JAVA_SDK_COMMIT = "71444e940bb4a761fc129e77d23a147a72698bbc";
const JAVA_JARS = ["okhttp", "okio", "gson", "opencensus-api", "slf4j-api", "grpc-context", "org.jetbrains.annotations-java8"].map((jar) => `/usr/share/java/${jar}.jar`);
const GO_CLIENT = process.env.GO_SDK_CLIENT ?? null;

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
  const spec = (await (await fetch(`${server.url}/coordinates/${lat},${lng}?at=${at}`)).json()) as { timezone: string; raw_offset: number; dst_offset: number };
  return { status: "OK", timeZoneId: cldrCanonical(spec.timezone), rawOffset: spec.raw_offset, dstOffset: spec.dst_offset };
}

describe("Google Time Zone SDKs", () => {
  test("JavaScript SDK 3.4.2 (installed from npm): timezone() with url", async () => {
    const dir = npmInstall({ "@googlemaps/google-maps-services-js": "3.4.2" });
    const { Client, Status } = await import(`${dir}/node_modules/@googlemaps/google-maps-services-js/dist/index.js`);
    const client = new Client({});
    for (const [lat, lng, at] of CASES) {
      const response = await client.timezone({ params: { location: { lat, lng }, timestamp: at, key: "any-key-at-all" }, url: `${server.url}/maps/api/timezone/json` });
      const { status, timeZoneId, rawOffset, dstOffset, timeZoneName } = response.data;
      expect({ lat, status, timeZoneId, rawOffset, dstOffset }).toEqual({ lat, ...(await expected(lat, lng, at)) });
      expect(typeof timeZoneName).toBe("string");
      expect(status).toBe(Status.OK);
    }
    // A Date as timestamp (the SDK serializes it to seconds); INVALID_REQUEST, which the SDK's adapter turns into an HTTP 400 error of its own.
    const now = await client.timezone({ params: { location: "48.8566,2.3522", timestamp: new Date(), key: "k" }, url: `${server.url}/maps/api/timezone/json` });
    expect(now.data.timeZoneId).toBe("Europe/Paris");
    const bad = await client.timezone({ params: { location: "95,0", timestamp: 0, key: "k" }, url: `${server.url}/maps/api/timezone/json` })
      .then(() => null, (error: { response: { data: { status: string; errorMessage: unknown } } }) => error.response.data);
    expect([bad?.status, typeof bad?.errorMessage]).toEqual(["INVALID_REQUEST", "string"]);
  }, 120_000);

  test.skipIf(mirrorRepo(PYTHON_SDK) === null)(`Python SDK: Client(base_url=) ${mirrorRepo(PYTHON_SDK) === null ? `(skipped: ${skipMessage(PYTHON_SDK)})` : ""}`, async () => {
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
    out.append(e.status)
print(json.dumps(out))
`;
    const run = Bun.spawn([python, "-c", script, JSON.stringify(CASES)], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const results = JSON.parse(out);
    for (const [i, [lat, lng, at]] of CASES.entries()) {
      const { status, timeZoneId, rawOffset, dstOffset } = results[i];
      expect({ lat, status, timeZoneId, rawOffset, dstOffset }).toEqual({ lat, ...(await expected(lat, lng, at)) });
      expect(typeof results[i].timeZoneName).toBe("string");
    }
    expect(results[CASES.length]).toBe("INVALID_REQUEST");
  }, 60_000);

  test.skipIf(GO_CLIENT === null)(`Go SDK: maps.WithBaseURL ${GO_CLIENT === null ? "(skipped: set GO_SDK_CLIENT to the client built from googlemaps/google-maps-services-go; CI has no Go module proxy)" : ""}`, async () => {
    const run = Bun.spawn([GO_CLIENT!, server.url, ...CASES.flat().map(String)], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const results = JSON.parse(out);
    for (const [i, [lat, lng, at]] of CASES.entries()) {
      const { dstOffset, rawOffset, timeZoneId, timeZoneName } = results[i];
      const want = await expected(lat, lng, at);
      expect({ lat, timeZoneId, rawOffset, dstOffset }).toEqual({ lat, timeZoneId: want.timeZoneId, rawOffset: want.rawOffset, dstOffset: want.dstOffset });
      expect(typeof timeZoneName).toBe("string");
    }
  }, 60_000);

  test.skipIf(mirrorRepo(JAVA_SDK) === null)(`Java SDK: GeoApiContext baseUrlOverride ${mirrorRepo(JAVA_SDK) === null ? `(skipped: ${skipMessage(JAVA_SDK)})` : ""}`, async () => {
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
    const refusal = (await (await fetch(`${server.url}/maps/api/timezone/json?location=95.00000000,0.00000000&timestamp=0&key=AIzaAnyKeyWorks`)).json()) as { status: string; errorMessage: string };
    expect(refusal.status).toBe("INVALID_REQUEST");
    expect(lines[points.length]).toBe(`InvalidRequestException: ${refusal.errorMessage}`);
  }, 120_000);
});
