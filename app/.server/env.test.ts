import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("has defaults that run the embedded site with no configuration", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "production",
      PORT: 3000,
      HOST: "127.0.0.1",
      SITE_URL: "http://localhost:3000",
      TRUST_PROXY: false,
      ERROR_PROBE: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe(path.resolve("./data"));
  });

  it("names every wrong variable", () => {
    expect(() =>
      parseEnv({ PORT: "http", SITE_URL: "localhost", DATABASE_URL: "mysql://x" }),
    ).toThrowError(EnvError);
    try {
      parseEnv({ PORT: "http", SITE_URL: "localhost", DATABASE_URL: "mysql://x" });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT:/);
      expect(message).toMatch(/SITE_URL:/);
      expect(message).toMatch(/DATABASE_URL:/);
    }
  });

  it("reads TRUST_PROXY as a hop count, or a list of addresses and named ranges", () => {
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8,::1" }).TRUST_PROXY).toEqual([
      "loopback",
      "10.0.0.0/8",
      "::1",
    ]);
    expect(parseEnv({ TRUST_PROXY: "" }).TRUST_PROXY).toBe(false);
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ TRUST_PROXY: "10.0.0.0/33" })).toThrow(/TRUST_PROXY/);
  });

  it("drops a trailing slash from SITE_URL so paths join cleanly", () => {
    expect(parseEnv({ SITE_URL: "https://pinout.dev/" }).SITE_URL).toBe("https://pinout.dev");
  });
});
