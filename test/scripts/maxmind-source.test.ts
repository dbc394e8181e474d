// A MaxMind GeoIP2/GeoLite2 City database as the IP source, written by the test: one IPv6
// tree with IPv4 under ::/96 and the ::ffff:0:0/96, Teredo and 6to4 subtrees aliased to
// it. The timezone comes from location.time_zone; the aliases are not walked twice.

import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IpTables } from "../../server/ip/ip-locator.ts";
import { parseIp } from "../../server/ip/address.ts";
import { lookupKey } from "../../server/ip/special-ranges.ts";
import { MmdbWriter } from "../support/mmdb-writer.ts";
import { ROOT } from "../support/test-server.ts";

test("a user-supplied MaxMind City database builds, with aliases skipped", async () => {
  const w = new MmdbWriter();
  const city = (zone: string) => ({ city: { names: { en: "x" } }, location: { time_zone: zone, latitude: 1.5, longitude: 2.5 } });
  w.insertIpv4("8.8.8.0", 24, city("America/Chicago"));
  w.insertIpv4("1.1.1.0", 24, city("Australia/Sydney"));
  w.insertIpv4("5.5.0.0", 16, city("Mars/Olympus_Mons"));
  w.insert("2a00:1450::", 32, city("Europe/Dublin"));
  w.insert("2600::", 16, city("America/New_York"));
  w.aliasToIpv4("::ffff:0:0", 96);
  w.aliasToIpv4("2001::", 32);
  w.aliasToIpv4("2002::", 16);
  const dir = mkdtempSync(join(tmpdir(), "zonetime-maxmind-"));
  const source = join(dir, "GeoLite2-City.mmdb");
  writeFileSync(source, w.toBytes());

  const out = join(dir, "generated");
  const child = Bun.spawn(["bun", "scripts/build.ts", "--out", out], {
    cwd: ROOT, env: { ...process.env, IP_SOURCE: source }, stdout: "pipe", stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toContain("zones our tzdb lacks, stored as no location: Mars/Olympus_Mons (1)");

  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  expect(manifest.ip.source).toBe(`GeoLite2-City (${source})`);
  expect(manifest.ip.dataDate).toBe(new Date(1_790_000_000 * 1000).toISOString());
  // IPv4: gap, 1.1.1/24, gap, 5.5/16 (unknown zone: merged into the gap), 8.8.8/24, gap.
  expect(manifest.ip.ranges).toEqual({ v4: 5, v6: 5 });

  const tables = await IpTables.load(out);
  const zone = (text: string) => {
    const key = lookupKey(parseIp(text)!);
    return key.version === 0 ? "reserved" : tables.zoneFor(key);
  };
  expect(zone("8.8.8.8")).toBe("America/Chicago");
  expect(zone("::ffff:8.8.8.8")).toBe("America/Chicago");
  expect(zone("2002:101:101::1")).toBe("Australia/Sydney");
  expect(zone("5.5.5.5")).toBeNull();
  expect(zone("9.9.9.9")).toBeNull();
  expect(zone("2a00:1450:4001::1")).toBe("Europe/Dublin");
  expect(zone("2600:1f00::1")).toBe("America/New_York");
  // Nothing of the IPv4 data was stored again under the 6to4 or Teredo aliases.
  expect(tables.zoneFor({ version: 6, high: 0x20020808, low: 0x08000000 })).toBeNull();
  expect(tables.zoneFor({ version: 6, high: 0x20010000, low: 0 })).toBeNull();
}, 120_000);
