import { createLocalJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Entitlement } from "../billing/entitlement.server";
import { signingKeys } from "../db/schema";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import {
  jwks,
  OFFLINE_GRACE_SECONDS,
  rotateLicenceKey,
  sealPlaintextKeys,
  signLicense,
} from "./license.server";

vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");

const DAY = 24 * 60 * 60 * 1000;
const entitlement: Entitlement = {
  plan: "free",
  status: "active",
  features: [],
  device_limit: 1,
  expires_at: null,
};

describe("licence signing keys", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test.close();
  });

  it("stores the private key sealed, never in plain text", async () => {
    await signLicense({ userId: "u1", deviceId: "d1", entitlement }, test.db);
    const rows = await test.db.select().from(signingKeys);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]?.privateJwk)).not.toMatch(/"d":/);
    expect(rows[0]?.privateJwk).toMatchObject({ sealed: "A256GCM" });
    expect(await sealPlaintextKeys(test.db)).toBe(0);
  });

  it("rotates: the new key signs, the old one verifies until its licences expire, then goes", async () => {
    const before = await signLicense({ userId: "u1", deviceId: "d1", entitlement }, test.db);
    const start = new Date();
    const rotated = await rotateLicenceKey(test.db, start);
    const after = await signLicense({ userId: "u1", deviceId: "d1", entitlement }, test.db);
    const headerKid = (token: string) =>
      JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString()).kid as string;
    expect(headerKid(after)).toBe(rotated.kid);
    expect(headerKid(before)).not.toBe(rotated.kid);

    const set = createLocalJWKSet(await jwks(test.db, start));
    await expect(jwtVerify(before, set)).resolves.toBeTruthy();
    await expect(jwtVerify(after, set)).resolves.toBeTruthy();

    // After the offline grace period the old key leaves the JWKS and the next rotation deletes it.
    const later = new Date(start.getTime() + OFFLINE_GRACE_SECONDS * 1000 + DAY);
    expect((await jwks(test.db, later)).keys.map((key) => key.kid)).toEqual([rotated.kid]);
    const next = await rotateLicenceKey(test.db, later);
    expect(next.removed).toContain(headerKid(before));
    expect(next.kept).toEqual([rotated.kid]);
  });
});
