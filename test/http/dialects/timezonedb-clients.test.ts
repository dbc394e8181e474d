// Done-when 1 for TimeZoneDB: real clients, changed only in host (or their base-URL
// options), against a real server.
//
// - npm `timezonedb` 1.0.2 (jdforsythe/timezonedb), installed from the npm registry: its
//   `host`/`port`/`https` options. Its own spec suite stubs the network (sinon), so it is
//   the package itself that runs here, every endpoint it has.
// - abrihter/timezonedb (Python, requests): its URL builder's host changed.
// - namnv609/timezonedb-php-api (Packagist; PHP, Guzzle): its `base_uri` changed, run with
//   Debian's php-cli, php-guzzlehttp-guzzle, php-symfony-options-resolver and php-xml.
// - The raw-socket Arduino clients' way of reading (henryflorence's first `{` to last `}`,
//   Qrome's marquee from the last `{`): the same bytes through a plain socket.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../../server/process/service.ts";
import { testConfig } from "../../support/test-server.ts";
import { rawRequest } from "../../support/raw-http.ts";
import { requireTool } from "../../support/require-tool.ts";
import { startTestServer } from "../../support/test-server.ts";
import { mirrorCheckout, mirrorFile, npmInstall, skipMessage, skipWithoutMirror } from "../../support/third-party.ts";

const ABRIHTER = "abrihter/timezonedb";
const NAMNV = "namnv609/timezonedb-php-api";
const CPAN = "nigelhorne/TimeZone-TimeZoneDB";
/** The newest TimeZone::TimeZoneDB whose modules Debian packages (later ones need Object::Configure, Params::Get). */
const CPAN_COMMIT = "8055cf0";

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT: "off" });
}, 120_000);
afterAll(() => server?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const spec = async (path: string): Promise<any> => (await fetch(`${server.url}${path}`)).json();

describe("TimeZoneDB clients", () => {
  test("npm timezonedb 1.0.2 (installed from npm): get by zone and position, list, convert, its FAILED error", async () => {
    const dir = npmInstall({ timezonedb: "1.0.2" });
    const tzdb = await import(`${dir}/node_modules/timezonedb/lib/index.js`);
    const cfg = { apiToken: "any-key-works", https: false, host: "127.0.0.1", port: server.port, basePath: "/v2.1/" };
    const at = 1752000000;
    const ny = await tzdb.getTimeZoneByZone(cfg, { zone: "America/New_York", time: at });
    const nySpec = await spec(`/timezone/America/New_York?at=${at}`);
    expect(ny).toMatchObject({ countryCode: "US", countryName: "United States", zoneName: "America/New_York", abbreviation: "EDT", gmtOffset: -14400, timestamp: at - 14400 });
    expect(ny.formatted).toBe(nySpec.datetime.slice(0, 19).replace("T", " "));
    // The package maps dst with `=== 1`, false for TimeZoneDB's string "1" (its quirk, real TimeZoneDB too).
    expect(ny.dst).toBe(false);
    expect(ny.zoneEnd + 1).toBe(Date.parse(nySpec.dst_until) / 1000);
    const tokyo = await tzdb.getTimeZoneByPosition(cfg, { lat: 35.68, lng: 139.76, time: at });
    expect([tokyo.zoneName, tokyo.gmtOffset, tokyo.abbreviation]).toEqual(["Asia/Tokyo", 32400, "JST"]);
    const zones = await tzdb.listTimeZones(cfg, { country: "AR" });
    expect(zones.length).toBe(12);
    expect(zones.every((z: { countryCode: string; zoneName: string }) => z.countryCode === "AR" && z.zoneName.startsWith("America/Argentina/"))).toBe(true);
    const conversion = await tzdb.convertTimeZone(cfg, { from: "America/Los_Angeles", to: "Australia/Sydney", time: 1464793200 });
    // The vendor's reference example: `time` is read as the wall clock of `from` (15:00 in Los Angeles is 08:00 next day in Sydney).
    expect([conversion.offset, conversion.fromAbbreviation, conversion.toAbbreviation, conversion.fromTimestamp, conversion.toTimestamp, conversion.toFormatted])
      .toEqual([61200, "PDT", "AEST", 1464793200, 1464854400, "2016-06-02 08:00:00"]);
    const cities = await tzdb.getTimeZoneByCity(cfg, { country: "AU", city: "Perth", time: at });
    expect(cities[0]).toMatchObject({ zoneName: "Australia/Perth", gmtOffset: 28800, countryCode: "AU" });
    const refused = await tzdb.getTimeZoneByZone(cfg, { zone: "Nowhere/Land" }).then(() => null, (e: Error) => e);
    expect(refused?.constructor.name).toBe("ApiRequestError");
  }, 120_000);

  test.skipIf(skipWithoutMirror(ABRIHTER))(`abrihter/timezonedb (Python, requests)${skipWithoutMirror(ABRIHTER) ? ` (skipped: ${skipMessage(ABRIHTER)})` : ""}`, async () => {
    const python = requireTool("python3");
    const dir = mirrorCheckout(ABRIHTER);
    const api = `${dir}/timezonedb/timezonedbapi.py`;
    const source = await Bun.file(api).text();
    const changed = source.replace(`"http://{}.timezonedb.com/v{}/{}".format(`, `"http://127.0.0.1:${server.port}/v{1}/{2}".format(`);
    expect(changed).not.toBe(source);
    await Bun.write(api, changed);
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(dir)})
from timezonedb.timezonedbapi import TimezoneDBAPI
api = TimezoneDBAPI("any-key", api_type="api")
import xml.etree.ElementTree as ET
out = {
  "get": api.get_time_zone(response_format="json", by="zone", zone="Europe/Berlin", time=1752000000),
  "list": api.list_time_zone(response_format="json", country="NZ"),
  "convert": api.convert_time_zone(response_format="json", from_zone="UTC", to_zone="Asia/Kathmandu", time=1752000000),
  "xml": {e.tag: e.text for e in ET.fromstring(api.get_time_zone(response_format="xml", by="position", lat="-33.87", lng="151.21", time=1752000000))},
}
print(json.dumps(out, default=str))
`;
    const run = Bun.spawn([python, "-c", script], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const result = JSON.parse(out);
    expect(result.get).toMatchObject({ status: "OK", zoneName: "Europe/Berlin", gmtOffset: 7200, dst: "1", abbreviation: "CEST" });
    expect(result.list.zones.map((z: { zoneName: string }) => z.zoneName)).toEqual(["Pacific/Auckland", "Pacific/Chatham"]);
    expect(result.convert).toMatchObject({ status: "OK", offset: 20700, toAbbreviation: "+0545" });
    expect(result.xml).toMatchObject({ status: "OK", zoneName: "Australia/Sydney", gmtOffset: "36000", dst: "0", abbreviation: "AEST" });
  }, 60_000);

  test.skipIf(skipWithoutMirror(NAMNV))(`namnv609/timezonedb-php-api (PHP, Guzzle) on /v2/${skipWithoutMirror(NAMNV) ? ` (skipped: ${skipMessage(NAMNV)})` : ""}`, async () => {
    const php = requireTool("php");
    const dir = mirrorCheckout(NAMNV);
    const client = `${dir}/src/TimeZoneDB.php`;
    const source = await Bun.file(client).text();
    const changed = source.replace(`"base_uri" => "http://api.timezonedb.com/v2/"`, `"base_uri" => "http://127.0.0.1:${server.port}/v2/"`);
    expect(changed).not.toBe(source);
    await Bun.write(client, changed);
    // Composer's autoload stands in as Debian's: the package's own classes, Guzzle and OptionsResolver from /usr/share/php.
    const script = `<?php
require "/usr/share/php/GuzzleHttp/autoload.php";
require "/usr/share/php/Symfony/Component/OptionsResolver/autoload.php";
require ${JSON.stringify(`${dir}/src/TimeZoneDB/TimeZones.php`)};
require ${JSON.stringify(client)};
$db = new NNV\\TimeZoneDB("any-key");
$xml = $db->listTimeZone(["format" => "xml", "zone" => "America/Argentina/*"]);
echo json_encode([
  "get" => $db->getTimeZone(["by" => "zone", "zone" => "Europe/Berlin", "time" => 1752000000]),
  "dst" => $db->getTimeZone(["by" => "zone", "zone" => "America/Chicago", "time" => 1752000000, "fields" => "dst,dstStart,dstEnd,gmtOffset"]),
  "position" => $db->getTimeZone(["by" => "position", "lat" => "-36.85", "lng" => "174.76", "time" => 1752000000]),
  "convert" => $db->convertTimeZone(["from" => "America/Los_Angeles", "to" => "Australia/Sydney", "time" => "06/01/2016 03:00PM"]),
  "xml" => ["status" => (string) $xml->status, "zones" => array_map(fn($z) => (string) $z->zoneName, iterator_to_array($xml->zones->zone, false))],
]);
`;
    await Bun.write(`${dir}/run.php`, script);
    const run = Bun.spawn([php, `${dir}/run.php`], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const result = JSON.parse(out);
    const at = 1752000000;
    for (const [key, zone] of [["get", "Europe/Berlin"], ["position", "Pacific/Auckland"]] as const) {
      const want = await spec(`/timezone/${zone}?at=${at}`);
      const offset = want.raw_offset + want.dst_offset;
      expect(result[key]).toMatchObject({ status: "OK", zoneName: zone, abbreviation: want.abbreviation, gmtOffset: offset, dst: want.dst ? "1" : "0", timestamp: at + offset });
      expect(result[key].formatted).toBe(want.datetime.slice(0, 19).replace("T", " "));
    }
    const chicago = await spec(`/timezone/America/Chicago?at=${at}`);
    // /v2/ answers with the older names dstStart/dstEnd (henryflorence's fields= asks for them).
    expect(result.dst).toMatchObject({ status: "OK", gmtOffset: chicago.raw_offset + chicago.dst_offset, dst: chicago.dst ? "1" : "0", dstEnd: Date.parse(chicago.dst_until) / 1000 - 1 });
    expect(result.dst.dstStart).toBe(Date.parse(chicago.dst_from) / 1000);
    // The client turns "06/01/2016 03:00PM" into a unix time itself (strtotime, UTC): 1464793200,
    // the wall clock of `from` as unix seconds. TimeZoneDB's reference page answers this very
    // request with fromTimestamp 1464793200, toTimestamp 1464854400, offset 61200: our spec
    // answer for the instant 15:00 in Los Angeles names (/convert) gives the same wall times.
    const converted = await spec("/convert?time=2016-06-01T15:00:00&from=America/Los_Angeles&to=Australia/Sydney");
    const [la, sydney] = [converted.from, converted.to];
    const [laOffset, sydneyOffset] = [la.raw_offset + la.dst_offset, sydney.raw_offset + sydney.dst_offset];
    const wall = (t: { datetime: string }) => Date.parse(`${t.datetime.slice(0, 19)}Z`) / 1000;
    expect(result.convert).toMatchObject({ status: "OK", fromZoneName: "America/Los_Angeles", fromAbbreviation: la.abbreviation, fromTimestamp: wall(la),
      toZoneName: "Australia/Sydney", toAbbreviation: sydney.abbreviation, toTimestamp: wall(sydney), offset: sydneyOffset - laOffset });
    expect([result.convert.fromTimestamp, result.convert.toTimestamp, result.convert.offset]).toEqual([1464793200, 1464854400, 61200]);
    expect(result.convert.toFormatted).toBe(sydney.datetime.slice(0, 19).replace("T", " "));
    // Our spec answer: the zone.tab names of Argentina (list-time-zone lists zone.tab, as TimeZoneDB).
    const argentina = (await spec("/timezone?country=AR") as string[]).filter((z) => z.startsWith("America/Argentina/"));
    expect(result.xml.status).toBe("OK");
    expect(result.xml.zones.sort()).toEqual(argentina.sort());
  }, 60_000);

  test.skipIf(skipWithoutMirror(NAMNV))(`namnv609/timezonedb-php-api: fields "all" (its own word for every field) on each endpoint${skipWithoutMirror(NAMNV) ? ` (skipped: ${skipMessage(NAMNV)})` : ""}`, async () => {
    const php = requireTool("php");
    const dir = mirrorCheckout(NAMNV);
    const client = `${dir}/src/TimeZoneDB.php`;
    const source = await Bun.file(client).text();
    const changed = source.replace(`"base_uri" => "http://api.timezonedb.com/v2/"`, `"base_uri" => "http://127.0.0.1:${server.port}/v2/"`);
    expect(changed).not.toBe(source);
    await Bun.write(client, changed);
    const script = `<?php
require "/usr/share/php/GuzzleHttp/autoload.php";
require "/usr/share/php/Symfony/Component/OptionsResolver/autoload.php";
require ${JSON.stringify(`${dir}/src/TimeZoneDB/TimeZones.php`)};
require ${JSON.stringify(client)};
$db = new NNV\\TimeZoneDB("any-key");
echo json_encode([
  "list" => $db->listTimeZone(["fields" => "all", "zone" => "Pacific/Chatham"]),
  "get" => $db->getTimeZone(["by" => "zone", "zone" => "Europe/Berlin", "time" => 1752000000, "fields" => "all"]),
  "convert" => $db->convertTimeZone(["from" => "UTC", "to" => "Asia/Kathmandu", "time" => "1752000000", "fields" => "all"]),
]);
`;
    await Bun.write(`${dir}/all.php`, script);
    const run = Bun.spawn([php, `${dir}/all.php`], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(err).toBe("");
    const result = JSON.parse(out);
    // Every field each endpoint has, as without `fields` (get, convert) or its full list (list-time-zone adds dst).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const plain = async (path: string): Promise<any> => (await fetch(`${server.url}/v2/${path}&key=k&format=json`)).json();
    expect(result.get).toEqual(await plain("get-time-zone?by=zone&zone=Europe/Berlin&time=1752000000"));
    expect(result.convert).toEqual(await plain("convert-time-zone?from=UTC&to=Asia/Kathmandu&time=1752000000"));
    const chatham = (await plain("list-time-zone?zone=Pacific/Chatham")).zones[0];
    expect(Object.keys(result.list.zones[0])).toEqual(["countryCode", "countryName", "zoneName", "gmtOffset", "dst", "timestamp"]);
    expect(result.list.zones[0]).toMatchObject({ ...chatham, timestamp: expect.any(Number) });
    expect(result.list.zones[0].dst).toBe(chatham.gmtOffset === 49500 ? "1" : "0");
  }, 60_000);

  test("empty filters mean none: list-time-zone?fields=all&country=&zone= (a client's defaults) lists every zone.tab zone", async () => {
    const every = (await (await fetch(`${server.url}/v2.1/list-time-zone?key=k&format=json&fields=all&country=&zone=`)).json()) as { status: string; zones: ({ zoneName: string } & Record<string, unknown>)[] };
    const unfiltered = (await (await fetch(`${server.url}/v2.1/list-time-zone?key=k&format=json`)).json()) as { zones: { zoneName: string }[] };
    expect(every.status).toBe("OK");
    expect(every.zones.map((z: { zoneName: string }) => z.zoneName)).toEqual(unfiltered.zones.map((z: { zoneName: string }) => z.zoneName));
    expect(every.zones.length).toBeGreaterThan(400);
    expect(every.zones.every((z: Record<string, unknown>) => Object.keys(z).length === 6)).toBe(true);
  });

  test("the Arduino clients' raw reading: one compact JSON body, no brace outside it, 200 on port 80 style GETs", async () => {
    const raw = await rawRequest(server.port, `GET /v2/get-time-zone?key=k&format=json&by=zone&zone=Europe/London&fields=dst,dstStart,dstEnd,gmtOffset HTTP/1.1\r\nHost: api.timezonedb.com\r\nConnection: close\r\n\r\n`);
    // henryflorence/timezonedb: from the first "{" to the last "}".
    const body = raw.slice(raw.indexOf("{"), raw.lastIndexOf("}") + 1);
    expect(raw.slice(0, raw.indexOf("\r\n\r\n"))).not.toMatch(/[{}]/);
    const parsed = JSON.parse(body);
    expect(Object.keys(parsed)).toEqual(["status", "message", "gmtOffset", "dst", "dstStart", "dstEnd"]);
    expect(body.length).toBeLessThan(512); // its MAX_CONTENT_SIZE
    // Qrome/marquee-scroller: from the last "{", reading timestamp (0 would mean failure).
    const marquee = await rawRequest(server.port, `GET /v2.1/get-time-zone?key=k&format=json&by=position&lat=40.71&lng=-74.0 HTTP/1.1\r\nHost: api.timezonedb.com\r\nUser-Agent: ArduinoWiFi/1.1\r\nConnection: close\r\n\r\n`);
    const last = JSON.parse(marquee.slice(marquee.lastIndexOf("{"), marquee.lastIndexOf("}") + 1));
    expect(last.timestamp).toBeGreaterThan(1_700_000_000);
  });
});

describe("TimeZoneDB clients over HTTPS", () => {
  test.skipIf(skipWithoutMirror(CPAN))(`CPAN TimeZone::TimeZoneDB (Perl, LWP, https only): its host option${skipWithoutMirror(CPAN) ? ` (skipped: ${skipMessage(CPAN)})` : ""}`, async () => {
    const perl = requireTool("perl");
    const openssl = requireTool("openssl");
    const dir = mkdtempSync(join(tmpdir(), "zonetime-cpan-"));
    const cert = Bun.spawnSync([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]);
    expect(cert.exitCode).toBe(0);
    const { server: tls } = await startServer(await testConfig({ TLS_CERT: join(dir, "cert.pem"), TLS_KEY: join(dir, "key.pem"), RATE_LIMIT: "off" }), { sharePort: false });
    try {
      mkdirSync(join(dir, "lib", "TimeZone"), { recursive: true });
      writeFileSync(join(dir, "lib", "TimeZone", "TimeZoneDB.pm"), mirrorFile(CPAN, "lib/TimeZone/TimeZoneDB.pm", CPAN_COMMIT));
      const script = `use strict; use JSON::MaybeXS; use TimeZone::TimeZoneDB;
my $tzdb = TimeZone::TimeZoneDB->new(key => 'any-key', host => '127.0.0.1:${tls.port}');
my %out;
for my $p ([51.34, 1.42], [-36.85, 174.76], [64.15, -21.94]) {
  my $r = $tzdb->get_time_zone(latitude => $p->[0], longitude => $p->[1]);
  $out{"$p->[0],$p->[1]"} = { zoneName => $r->{zoneName}, gmtOffset => $r->{gmtOffset}, dst => $r->{dst}, status => $r->{status} };
}
print encode_json(\\%out);`;
      const run = Bun.spawn([perl, `-I${join(dir, "lib")}`, "-e", script], { stdout: "pipe", stderr: "pipe", env: { ...process.env, PERL_LWP_SSL_CA_FILE: join(dir, "cert.pem") } });
      const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
      expect(err).toBe("");
      const result = JSON.parse(out);
      for (const [point, zone] of [["51.34,1.42", "Europe/London"], ["-36.85,174.76", "Pacific/Auckland"], ["64.15,-21.94", "Atlantic/Reykjavik"]] as const) {
        const now = await spec(`/timezone/${zone}`);
        expect(result[point]).toEqual({ zoneName: zone, gmtOffset: now.raw_offset + now.dst_offset, dst: now.dst ? "1" : "0", status: "OK" });
      }
    } finally {
      tls.stop(true);
    }
  }, 60_000);
});
