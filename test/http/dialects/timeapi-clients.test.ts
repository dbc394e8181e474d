// Done-when 1 for timeapi.io: real client code, changed only in its host, against a real
// server. Each runs when its source is at hand (see ../../support/third-party.ts):
//
// - Seeed's SenseCAP Indicator firmware (C, ESP-IDF): its own request format, its one
//   read of the answer, its `strstr(buf,"\r\n\r\n") + 4 + 3` skip of the chunk size and its
//   cJSON parse, compiled with gcc and Debian's libcjson. Changed: the host, and TLS (a
//   pinned timeapi.io certificate no other host can present) for a plain socket.
// - NicoToff/web-workers-demo's fetch helper (JS), run by Bun.
// - supeGirl/ZentrackBack's time service (JS, fetch with retries and fallbacks): reads
//   `dateTime` of /api/Time/current/zone, run by Bun with its host changed.
// - JonnyWalker81/nixos-config's sync-time service (v1, bash + curl + jq): its fetch_time
//   function as the Nix file writes it, with Nix's `${curl}`/`${jq}` store paths rendered as
//   Debian's curl and jq and the host changed.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireTool } from "../../support/require-tool.ts";
import { startTestServer } from "../../support/test-server.ts";
import { mirrorFile, skipMessage, skipWithoutMirror } from "../../support/third-party.ts";

const SENSECAP = "Seeed-Solution/SenseCAP_Indicator_ESP32";
const SENSECAP_FILE = "examples/indicator_basis/main/model/indicator_city.c";
const WORKERS = "NicoToff/web-workers-demo";
const ZENTRACK = "supeGirl/ZentrackBack";
const NIXOS = "JonnyWalker81/nixos-config";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server?.stop());

/** A C function of the firmware, verbatim: from its signature to the first closing brace at column 0. */
function cFunction(source: string, signature: string): string {
  const start = source.indexOf(signature);
  if (start < 0) throw new Error(`${signature} not found in the firmware`);
  const end = source.indexOf("\n}\n", start);
  return source.slice(start, end + 3);
}

/**
 * The firmware's __time_zone_get (its first, esp_tls form) with the host changed and
 * https_get_request (TLS with the pinned certificate) replaced by the same request over a
 * plain socket, read once as the firmware reads it.
 */
function harness(source: string, port: number): string {
  const parse = cFunction(source, "static int __time_zone_data_prase(const char *p_str)");
  let get = cFunction(source, "static int __time_zone_get(char *ip)");
  get = get.replace(/esp_tls_cfg_t cfg = \{[\s\S]*?\};/, "")
    .replace("https_get_request(cfg, time_zone_url, time_zone_request)", "plain_get_request(time_zone_request)")
    .replaceAll("https://www.timeapi.io", `http://127.0.0.1:${port}`)
    .replaceAll("Host: www.timeapi.io", `Host: 127.0.0.1:${port}`);
  if (!get.includes("plain_get_request") || !get.includes(`http://127.0.0.1:${port}/api/TimeZone/ip`)) throw new Error("the firmware's __time_zone_get changed shape");
  return `#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <cjson/cJSON.h>
#define ESP_LOGI(tag, ...) (fprintf(stderr, __VA_ARGS__), fputc('\\n', stderr))
#define MAX_HTTP_OUTPUT_BUFFER 4096
struct indicator_city { char ip[32]; char city[32]; char timezone[64]; int local_utc_offset; };
static const char *TAG = "city";
static struct indicator_city __g_city_model;
static char local_response_buffer[MAX_HTTP_OUTPUT_BUFFER] = {0};

/* https_get_request over a plain socket: write the request, read once (the firmware's "break; //todo"). */
static int plain_get_request(const char *request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(${port}) };
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) return -1;
  if (write(fd, request, strlen(request)) != (ssize_t)strlen(request)) return -1;
  memset(local_response_buffer, 0, sizeof local_response_buffer);
  int n = (int)read(fd, local_response_buffer, sizeof local_response_buffer - 1);
  close(fd);
  return n;
}

${parse}
${get}
int main(int argc, char **argv) {
  __g_city_model.local_utc_offset = -99999;
  int ret = __time_zone_get(argv[1]);
  printf("%d %d\\n", ret, __g_city_model.local_utc_offset);
  return 0;
}
`;
}

describe("timeapi.io clients", () => {
  test.skipIf(skipWithoutMirror(SENSECAP))(`SenseCAP Indicator firmware's timezone fetch, compiled with gcc${skipWithoutMirror(SENSECAP) ? ` (skipped: ${skipMessage(SENSECAP)})` : ""}`, async () => {
    const gcc = requireTool("gcc");
    const dir = mkdtempSync(join(tmpdir(), "zonetime-sensecap-"));
    writeFileSync(join(dir, "city.c"), harness(mirrorFile(SENSECAP, SENSECAP_FILE), server.port));
    const build = Bun.spawnSync([gcc, "-O0", "-o", join(dir, "city"), join(dir, "city.c"), "-lcjson"]);
    expect(build.stderr.toString()).not.toContain("error");
    expect(build.exitCode).toBe(0);
    // Addresses whose zones differ, DST or not, east and west (the offsets come from our own /ip answer).
    for (const ip of ["8.8.8.8", "1.1.1.1", "81.2.69.160", "203.0.113.1" /* documentation: no location */, "133.242.0.3", "200.160.2.3"]) {
      const spec = await fetch(`${server.url}/ip/${ip}`);
      // Asynchronously: the server answers from this same process.
      const run = Bun.spawn([join(dir, "city"), ip], { stdout: "pipe", stderr: "pipe" });
      const [out] = await Promise.all([new Response(run.stdout).text(), run.exited]);
      const [ret, offset] = out.trim().split(" ").map(Number);
      if (spec.status !== 200) {
        // timeapi.io's error is text: cJSON finds no object, the firmware keeps its offset.
        expect([ip, ret, offset]).toEqual([ip, -1, -99999]);
        continue;
      }
      const utcOffset = ((await spec.json()) as { utc_offset: string }).utc_offset;
      const seconds = (utcOffset[0] === "-" ? -1 : 1) * (Number(utcOffset.slice(1, 3)) * 3600 + Number(utcOffset.slice(4, 6)) * 60);
      expect([ip, ret, offset]).toEqual([ip, 0, seconds]);
    }
  }, 60_000);

  test.skipIf(skipWithoutMirror(WORKERS))(`web-workers-demo's getTimeData (fetch)${skipWithoutMirror(WORKERS) ? ` (skipped: ${skipMessage(WORKERS)})` : ""}`, async () => {
    const source = mirrorFile(WORKERS, "public/workers/fetch/helpers.js").replaceAll("https://timeapi.io", server.url);
    const dir = mkdtempSync(join(tmpdir(), "zonetime-workers-"));
    writeFileSync(join(dir, "helpers.js"), source);
    const { getTimeData } = await import(join(dir, "helpers.js"));
    const amsterdam = await getTimeData();
    expect(amsterdam.timeZone).toBe("Europe/Amsterdam");
    expect(amsterdam.standardUtcOffset.seconds).toBe(3600);
    const spec = (await (await fetch(`${server.url}/timezone/America/St_Johns`)).json()) as { raw_offset: number; dst_offset: number; dst: boolean };
    const stJohns = await getTimeData("America/St_Johns");
    expect([stJohns.currentUtcOffset.seconds, stJohns.isDayLightSavingActive]).toEqual([spec.raw_offset + spec.dst_offset, spec.dst]);
  });

  test.skipIf(skipWithoutMirror(NIXOS))(`nixos-config's sync-time fetch_time (v1 unix, curl | jq)${skipWithoutMirror(NIXOS) ? ` (skipped: ${skipMessage(NIXOS)})` : ""}`, async () => {
    const bash = requireTool("bash");
    requireTool("curl");
    requireTool("jq");
    const nix = mirrorFile(NIXOS, "machines/vm-aarch64-prl.nix");
    // The shell function verbatim from the Nix string, rendered as Nix renders it ('' escapes `''${`).
    const fn = /\n( *)fetch_time\(\) \{\n[\s\S]*?\n\1\}\n/.exec(nix)?.[0];
    if (!fn || !fn.includes("https://timeapi.io/api/v1/time/current/unix")) throw new Error("the nixos-config fetch_time changed shape");
    const script = fn.replaceAll("''${", "${").replaceAll("${curl}", "curl").replaceAll("${jq}", "jq").replaceAll("https://timeapi.io", server.url);
    const before = ((await (await fetch(`${server.url}/timezone/UTC`)).json()) as { unixtime: number }).unixtime;
    const run = Bun.spawn([bash, "-c", `${script}\nfetch_time`], { stdout: "pipe", stderr: "pipe" });
    const [out, , code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    const after = ((await (await fetch(`${server.url}/timezone/UTC`)).json()) as { unixtime: number }).unixtime;
    expect(code).toBe(0);
    // Our spec answer for the same instant: the unix time of /timezone/UTC, taken around the client's call.
    expect(out).toMatch(/^\d+\n$/);
    const got = Number(out.trim());
    expect(got >= before && got <= after).toBe(true);
  });

  test.skipIf(skipWithoutMirror(ZENTRACK))(`ZentrackBack's fetchBerlinTime (fetch, legacy Time/current/zone)${skipWithoutMirror(ZENTRACK) ? ` (skipped: ${skipMessage(ZENTRACK)})` : ""}`, async () => {
    const source = mirrorFile(ZENTRACK, "api/time/time.service.js");
    const changed = source.replaceAll("https://timeapi.io", server.url);
    expect(changed).not.toBe(source);
    const dir = mkdtempSync(join(tmpdir(), "zonetime-zentrack-"));
    writeFileSync(join(dir, "time.service.js"), changed);
    const { fetchBerlinTime } = await import(join(dir, "time.service.js"));
    const local = async () => ((await (await fetch(`${server.url}/timezone/Europe/Berlin`)).json()) as { datetime: string }).datetime.slice(0, 19);
    const before = await local();
    const got = await fetchBerlinTime();
    const after = await local();
    // It answered from us (not its worldtimeapi.org or local fallbacks), with Berlin's wall time of that instant (no offset, as timeapi.io).
    expect(got.source).toBe(`${server.url}/api/Time/current/zone?timeZone=Europe/Berlin`);
    const dateTime: string = got.datetime.datetime;
    expect(dateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?$/);
    expect(dateTime.slice(0, 19) >= before && dateTime.slice(0, 19) <= after).toBe(true);
  });
});
