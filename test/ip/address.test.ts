// The strict address parser, and what an address is looked up as: IPv4 inside IPv6 is
// unwrapped, and addresses off the public Internet have no location.

import { describe, expect, test } from "bun:test";
import { formatIp, parseIp } from "../../server/ip/address.ts";
import { lookupKey } from "../../server/ip/special-ranges.ts";

describe("valid addresses and their canonical text", () => {
  test.each([
    ["8.8.8.8", "8.8.8.8"],
    ["0.0.0.0", "0.0.0.0"],
    ["255.255.255.255", "255.255.255.255"],
    ["2001:4860:4860::8888", "2001:4860:4860::8888"],
    ["2001:4860:4860:0:0:0:0:8888", "2001:4860:4860::8888"],
    ["2001:DB8::1", "2001:db8::1"],
    ["::", "::"],
    ["::1", "::1"],
    ["1::", "1::"],
    // RFC 5952 section 5: an IPv4-mapped address keeps its dotted tail (as Go's netip
    // writes it); other prefixes that embed IPv4 are plain hex, as Go's netip does.
    ["::ffff:8.8.8.8", "::ffff:8.8.8.8"],
    ["::FFFF:808:808", "::ffff:8.8.8.8"],
    ["0:0:0:0:0:ffff:0.0.0.0", "::ffff:0.0.0.0"],
    ["::ffff:0:808:808", "::ffff:0:808:808"],
    ["::808:808", "::808:808"],
    ["::1:ffff:808:808", "::1:ffff:808:808"],
    ["64:ff9b::8.8.8.8", "64:ff9b::808:808"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["fe80::1:2:3:4", "fe80::1:2:3:4"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"],
  ])("%s", (text, canonical) => {
    const address = parseIp(text);
    expect(address).not.toBeNull();
    expect(formatIp(address!)).toBe(canonical);
  });
});

describe("invalid addresses, each with the reason", () => {
  test.each([
    ["1.2.3", "three parts: inet_aton's shortcut for 1.2.0.3"],
    ["1.2.3.4.5", "five parts"],
    ["010.0.0.1", "a leading zero, which inet_aton reads as octal (8.0.0.1)"],
    ["0x7f.0.0.1", "hex is not dotted-quad"],
    ["256.1.1.1", "an octet above 255"],
    ["1.2.3.-4", "a sign"],
    ["1..2.3", "an empty octet"],
    [" 1.2.3.4", "surrounding space"],
    ["1.2.3.4 ", "surrounding space"],
    ["", "empty"],
    ["localhost", "a host name"],
    ["2001:db8::1::2", "two ::"],
    ["1:2:3:4:5:6:7:8:9", "nine groups"],
    ["1:2:3:4:5:6:7", "seven groups without ::"],
    ["1:2:3:4:5:6:7::8", "nine groups with ::"],
    ["12345::1", "a five-digit group"],
    ["fe80::1%eth0", "a zone id names an interface on someone else's machine"],
    ["::ffff:1.2.3", "a short embedded IPv4"],
    ["::1.2.3.4:5", "embedded IPv4 not at the end"],
    ["g::1", "not hex"],
    [":1::2", "a lone leading colon"],
    ["1::2:", "a lone trailing colon"],
    ["[::1]", "brackets belong to URLs, not addresses"],
    ["1".repeat(46), "longer than any address"],
  ])("%s (%s)", (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe("unwrapping and reserved ranges", () => {
  const key = (text: string) => lookupKey(parseIp(text)!);
  test("8.8.8.8 in IPv4-mapped, NAT64, 6to4 and Teredo form is looked up as 8.8.8.8", () => {
    const plain = key("8.8.8.8");
    expect(plain).toEqual({ version: 4, value: 0x08080808 });
    for (const wrapped of ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"]) {
      expect(key(wrapped)).toEqual(plain);
    }
  });
  test.each([
    "10.1.2.3", "127.0.0.1", "::1", "fe80::1", "100.64.0.1", "192.0.2.1", "224.0.0.1", "172.16.5.4", "192.168.1.1",
    "169.254.1.1", "0.1.2.3", "240.0.0.1", "255.255.255.255", "198.18.0.1", "198.51.100.7", "203.0.113.9",
    "::", "fc00::1", "fd12:3456::1", "ff02::1", "2001:db8::1", "3fff::1", "::ffff:10.0.0.1", "2002:c0a8:101::1", "64:ff9b:1::1",
  ])("%s has no location", (text) => {
    expect(key(text).version).toBe(0);
  });
  test("a global IPv6 address is looked up by its /64", () => {
    expect(key("2001:4860:4860::8888")).toEqual({ version: 6, high: 0x20014860, low: 0x48600000 });
  });
});
