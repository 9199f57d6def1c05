import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, envSchema, parseEnv, SANDBOX_KEYS } from "./env";

/** Keys of the shape Razorpay's test mode gives (never real ones). */
const RAZORPAY_TEST_KEYS = {
  RAZORPAY_KEY_ID: "rzp_test_abcdef123456",
  RAZORPAY_KEY_SECRET: "a-test-key-secret",
  RAZORPAY_WEBHOOK_SECRET: "a-test-webhook-secret",
};

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
    expect(parseEnv({ SITE_URL: "http://localhost:3000/" }).SITE_URL).toBe("http://localhost:3000");
  });

  it("uses the payment sandbox with its fixed test keys by default", () => {
    const env = parseEnv({});
    expect(env.PAYMENTS_PROVIDER).toBe("sandbox");
    expect(env.RAZORPAY_KEY_ID).toBe(SANDBOX_KEYS.RAZORPAY_KEY_ID);
    expect(env.RAZORPAY_KEY_SECRET).toBe(SANDBOX_KEYS.RAZORPAY_KEY_SECRET);
    expect(env.RAZORPAY_WEBHOOK_SECRET).toBe(SANDBOX_KEYS.RAZORPAY_WEBHOOK_SECRET);
    expect(env.JOBS_WORKER).toBe(true);
    expect(parseEnv({ RAZORPAY_KEY_ID: "rzp_test_Mine12345678" }).RAZORPAY_KEY_ID).toBe(
      "rzp_test_Mine12345678",
    );
  });

  it("refuses Razorpay without its three keys, naming each", () => {
    try {
      parseEnv({ PAYMENTS_PROVIDER: "razorpay", RAZORPAY_KEY_ID: "rzp_live_Abcdef123456" });
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as Error).message;
      expect(message).not.toMatch(/RAZORPAY_KEY_ID:/);
      expect(message).toMatch(/RAZORPAY_KEY_SECRET: required with PAYMENTS_PROVIDER=razorpay/);
      expect(message).toMatch(/RAZORPAY_WEBHOOK_SECRET: required/);
    }
    expect(() => parseEnv({ RAZORPAY_KEY_ID: "pk_live_123" })).toThrow(/RAZORPAY_KEY_ID/);
    const live = parseEnv({
      PAYMENTS_PROVIDER: "razorpay",
      SITE_URL: "https://pinout.dev",
      RAZORPAY_KEY_ID: "rzp_live_Abcdef123456",
      RAZORPAY_KEY_SECRET: "live-secret-123",
      RAZORPAY_WEBHOOK_SECRET: "webhook-secret-123",
    });
    expect(live.RAZORPAY_KEY_SECRET).toBe("live-secret-123");
  });

  it("refuses the sandbox on an https site unless it is declared a public demo", () => {
    expect(() => parseEnv({ SITE_URL: "https://pinout.dev/" })).toThrow(
      /PAYMENTS_SANDBOX_PUBLIC=1/,
    );
    expect(
      parseEnv({ SITE_URL: "https://pinout.dev/", PAYMENTS_SANDBOX_PUBLIC: "1" }).SITE_URL,
    ).toBe("https://pinout.dev");
  });

  it("refuses the sandbox on any site that is not this machine, http included", () => {
    for (const url of [
      "http://shop.example.com",
      "http://192.168.1.20:3000",
      "http://[2001:db8::1]",
    ])
      expect(() => parseEnv({ SITE_URL: url }), url).toThrow(
        /PAYMENTS_PROVIDER: the payment sandbox would let anyone who reaches .* get Pro without paying.*PAYMENTS_SANDBOX_PUBLIC=1/,
      );
    expect(() => parseEnv({ HOST: "10.0.0.5" })).toThrow(/PAYMENTS_SANDBOX_PUBLIC=1/);
    for (const url of [
      "http://localhost:3000",
      "http://127.0.0.1:4000",
      "http://[::1]:3000",
      "https://localhost",
    ])
      expect(parseEnv({ SITE_URL: url }).PAYMENTS_PROVIDER, url).toBe("sandbox");
    expect(
      parseEnv({ HOST: "0.0.0.0", PAYMENTS_PROVIDER: "razorpay", ...RAZORPAY_TEST_KEYS }).SITE_URL,
    ).toBe("http://localhost:3000");
    expect(
      parseEnv({ SITE_URL: "http://shop.example.com", PAYMENTS_SANDBOX_PUBLIC: "1" }).SITE_URL,
    ).toBe("http://shop.example.com");
  });

  it("refuses the sandbox on a server listening on every address, whatever SITE_URL says (issue 32, point 13)", () => {
    for (const HOST of ["0.0.0.0", "::", "192.168.1.20"])
      for (const site of [{}, { SITE_URL: "http://localhost:3000" }])
        expect(() => parseEnv({ HOST, ...site }), HOST).toThrow(
          /(HOST|PAYMENTS_PROVIDER): the payment sandbox would let anyone .*PAYMENTS_SANDBOX_PUBLIC=1/,
        );
    for (const HOST of ["127.0.0.1", "127.0.0.2", "localhost", "::1"])
      expect(parseEnv({ HOST }).PAYMENTS_PROVIDER, HOST).toBe("sandbox");
    expect(parseEnv({ HOST: "0.0.0.0", PAYMENTS_SANDBOX_PUBLIC: "1" }).PAYMENTS_PROVIDER).toBe(
      "sandbox",
    );
    expect(
      parseEnv({ HOST: "0.0.0.0", PAYMENTS_PROVIDER: "razorpay", ...RAZORPAY_TEST_KEYS })
        .PAYMENTS_PROVIDER,
    ).toBe("razorpay");
  });

  it("runs one process unless told otherwise, and several only on PostgreSQL with Razorpay", () => {
    expect(parseEnv({}).WEB_CONCURRENCY).toBe(1);
    expect(() => parseEnv({ WEB_CONCURRENCY: "2" })).toThrow(/WEB_CONCURRENCY: .*DATABASE_URL/);
    const postgres = {
      WEB_CONCURRENCY: "2",
      DATABASE_URL: "postgres://localhost/pinout",
      BETTER_AUTH_SECRET: "a-secret-of-at-least-thirty-two-characters",
    };
    expect(() => parseEnv(postgres)).toThrow(/WEB_CONCURRENCY: .*PAYMENTS_PROVIDER=razorpay/);
    expect(
      parseEnv({
        ...postgres,
        PAYMENTS_PROVIDER: "razorpay",
        RAZORPAY_KEY_ID: "rzp_test_abcdef123456",
        RAZORPAY_KEY_SECRET: "a-key-secret",
        RAZORPAY_WEBHOOK_SECRET: "webhook-secret",
      }).WEB_CONCURRENCY,
    ).toBe(2);
    expect(() => parseEnv({ WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY:/);
  });
});

describe("SITE_URL when it is not set", () => {
  it("takes no backups until BACKUP_DIR is set, and schedules them only with it", () => {
    const defaults = parseEnv({});
    expect(defaults).toMatchObject({ BACKUP_INTERVAL_HOURS: 0, BACKUP_KEEP: 14 });
    expect(defaults.BACKUP_DIR).toBeUndefined();
    expect(defaults.BACKUP_AGE_RECIPIENT).toBeUndefined();
    expect(() => parseEnv({ BACKUP_INTERVAL_HOURS: "24" })).toThrow(
      /BACKUP_INTERVAL_HOURS: scheduled backups need BACKUP_DIR/,
    );
    const scheduled = parseEnv({ BACKUP_DIR: "backups", BACKUP_INTERVAL_HOURS: "24" });
    expect(scheduled.BACKUP_DIR).toBe(path.resolve("backups"));
    expect(() => parseEnv({ BACKUP_AGE_RECIPIENT: "age1notakey" })).toThrow(
      /BACKUP_AGE_RECIPIENT: must be an age public key/,
    );
    const recipient = "age1ehvycrfrmumthf7qxhtl7sfcvx0nfnxlwtk8ljutd8wgq6mtypnq8ydh2t";
    expect(parseEnv({ BACKUP_AGE_RECIPIENT: recipient }).BACKUP_AGE_RECIPIENT).toBe(recipient);
  });

  it("follows PORT on a loopback HOST and trusts both loopback spellings", () => {
    const parsed = parseEnv({ PORT: "3456" });
    expect(parsed.SITE_URL).toBe("http://localhost:3456");
    expect(parsed.TRUSTED_ORIGINS).toEqual(["http://localhost:3456", "http://127.0.0.1:3456"]);
  });

  it("follows a non-loopback HOST", () => {
    // A demo on the local network (the sandbox elsewhere than this machine must be declared).
    const parsed = parseEnv({ HOST: "192.168.1.20", PORT: "8080", PAYMENTS_SANDBOX_PUBLIC: "1" });
    expect(parsed.SITE_URL).toBe("http://192.168.1.20:8080");
    expect(parsed.TRUSTED_ORIGINS).toEqual(["http://192.168.1.20:8080"]);
  });

  it("trusts only the origin of an explicit SITE_URL", () => {
    const parsed = parseEnv({
      PORT: "3456",
      SITE_URL: "https://pinout.dev/",
      PAYMENTS_SANDBOX_PUBLIC: "1",
    });
    expect(parsed.SITE_URL).toBe("https://pinout.dev");
    expect(parsed.TRUSTED_ORIGINS).toEqual(["https://pinout.dev"]);
  });
});

describe("the README's configuration table", () => {
  /** The variable names in the table under "## Configuration" (a row may name two: `PORT`, `HOST`). */
  function documented(): Set<string> {
    const readme = fs.readFileSync(path.resolve("README.md"), "utf8");
    const start = readme.indexOf("## Configuration");
    const end = readme.indexOf("\n## ", start + 1);
    const names = new Set<string>();
    for (const line of readme.slice(start, end === -1 ? undefined : end).split("\n")) {
      const first = /^\| ([^|]+)\|/.exec(line)?.[1] ?? "";
      for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]!);
    }
    return names;
  }

  it("names every variable env.ts reads, and none it does not", () => {
    const read = Object.keys(envSchema.shape).sort();
    expect([...documented()].sort()).toEqual(read);
  });

  it("and .env.example lists each of them", () => {
    const example = fs.readFileSync(path.resolve(".env.example"), "utf8");
    const listed = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    expect(Object.keys(envSchema.shape).filter((name) => !listed.has(name))).toEqual([]);
  });
});
