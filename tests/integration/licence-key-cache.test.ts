/**
 * Each process keeps the licence signing key in memory (docs/decisions/0032), yet
 * `npm run keys:rotate`, run beside the running site on PostgreSQL, makes the next licence of
 * every instance signed with the new key: the rotation announces itself (NOTIFY), so no process
 * keeps signing with the old one (which would still verify for 7 days, but a rotation after a leak
 * must take effect at once). Licences signed before and after both verify with the JWKS.
 */
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signUpVerified } from "../support/auth";
import { signInDevice } from "../support/desktop";
import { runScript } from "../support/cli";
import { createDatabase } from "../support/engines";
import { type RunningTestServer, startServer } from "../support/server";

const postgresUrl = inject("postgresUrl");

async function deviceToken(server: RunningTestServer, email: string): Promise<string> {
  const cookie = await signUpVerified(server, { name: "Key", email, password: "key-cache-pw-1" });
  return signInDevice(server, cookie, "Key Mac");
}

async function licence(server: RunningTestServer, access: string): Promise<string> {
  const response = await fetch(`${server.url}/api/desktop/me`, {
    headers: { authorization: `Bearer ${access}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { license: string }).license;
}

// PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
describe.runIf(postgresUrl)("licence signing key kept in memory, on PostgreSQL", () => {
  let servers: RunningTestServer[] = [];
  let databaseUrl = "";

  beforeAll(async () => {
    databaseUrl = await createDatabase(postgresUrl);
    const first = await startServer({ env: { DATABASE_URL: databaseUrl } });
    // The second starts once the first made the key: both sign with the same one.
    servers = [first, await startServer({ env: { DATABASE_URL: databaseUrl } })];
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it("signs with the new key in every instance as soon as keys:rotate ran", async () => {
    const [one, two] = servers as [RunningTestServer, RunningTestServer];
    const accessOne = await deviceToken(one, "key-one@example.com");
    const accessTwo = await deviceToken(two, "key-two@example.com");
    const kid = (token: string) => decodeProtectedHeader(token).kid;
    const before = [await licence(one, accessOne), await licence(two, accessTwo)];
    expect(kid(before[1]!)).toBe(kid(before[0]!));

    const rotated = await runScript("scripts/keys-rotate.ts", [], {
      DATABASE_URL: databaseUrl,
      // The servers' (tests/support/server.ts): it seals the keys on PostgreSQL.
      BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
    });
    expect(rotated.code, rotated.output).toBe(0);
    const newKid = /new licence signing key (\S+)/.exec(rotated.output)?.[1];
    expect(newKid).toBeTruthy();
    expect(newKid).not.toBe(kid(before[0]!));

    // The notice takes milliseconds; the memory would otherwise last 30 s.
    await expect
      .poll(async () => [kid(await licence(one, accessOne)), kid(await licence(two, accessTwo))], {
        timeout: 5_000,
      })
      .toEqual([newKid, newKid]);
    const keys = createRemoteJWKSet(new URL(`${one.url}/.well-known/jwks.json`));
    for (const token of [...before, await licence(two, accessTwo)])
      await jwtVerify(token, keys, { audience: "desktop" });
  });
});
