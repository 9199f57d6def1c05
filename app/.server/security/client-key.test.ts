import { describe, expect, it } from "vitest";
import { rateLimitClientKey } from "./client-key";

describe("rateLimitClientKey", () => {
  it("counts IPv4 addresses one by one, mapped or not", () => {
    expect(rateLimitClientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitClientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts IPv6 addresses by their /64 network, however they are written", () => {
    const key = "2001:db8:abcd:12::/64";
    expect(rateLimitClientKey("2001:db8:abcd:12::1")).toBe(key);
    expect(rateLimitClientKey("2001:0db8:abcd:0012:ffff:ffff:ffff:ffff")).toBe(key);
    expect(rateLimitClientKey("2001:DB8:ABCD:12:0:0:0:9")).toBe(key);
    expect(rateLimitClientKey("2001:db8:abcd:13::1")).not.toBe(key);
    expect(rateLimitClientKey("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitClientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("keeps anything else as it is", () => {
    expect(rateLimitClientKey("")).toBe("unknown");
    expect(rateLimitClientKey("not-an-ip")).toBe("not-an-ip");
  });
});
