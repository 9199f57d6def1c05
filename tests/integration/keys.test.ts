import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpVerified } from "../support/auth";
import { runScript } from "../support/cli";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";

/** Issue 9, point 4: keys and tokens at rest. */
describe("keys and tokens at rest", () => {
  const dataDir = startedDataDir();
  let server: RunningTestServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServer({ dataDir });
    cookie = await signUpVerified(server, {
      name: "Keys",
      email: "keys@example.com",
      password: "keys-password-123",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const sessionWith = async (authorization: string) =>
    (
      (await (await fetch(`${server.url}/api/session`, { headers: { authorization } })).json()) as {
        user: { email: string } | null;
      }
    ).user;

  it("accepts a signed bearer token but not the raw token a leaked session row holds", async () => {
    const value = /better-auth\.session_token=([^;]+)/.exec(cookie)?.[1];
    if (!value) throw new Error("no session cookie");
    const signed = decodeURIComponent(value);
    const raw = signed.split(".")[0] ?? "";
    expect(raw.length).toBeGreaterThan(10);
    expect((await sessionWith(`Bearer ${signed}`))?.email).toBe("keys@example.com");
    expect(await sessionWith(`Bearer ${raw}`)).toBeNull();
  });

  it("rotates the licence key with npm run keys:rotate, keeping the old key in the JWKS", async () => {
    const kids = async () =>
      (
        (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as {
          keys: { kid: string }[];
        }
      ).keys.map((key) => key.kid);
    const before = await kids();
    expect(before).toHaveLength(1);
    await server.stop();
    const rotated = await runScript("scripts/keys-rotate.ts", [], { DATA_DIR: dataDir });
    expect(rotated.code).toBe(0);
    expect(rotated.output).toContain("new licence signing key");
    server = await startServer({ dataDir });
    const after = await kids();
    expect(after).toHaveLength(2);
    expect(after).toContain(before[0]);
  });
});
