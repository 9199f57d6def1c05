import { createLocalJWKSet, decodeJwt, importJWK, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Entitlement } from "../billing/entitlement.server";
import { desc } from "drizzle-orm";
import { signingKeys } from "../db/schema";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { openJwk } from "../security/key-vault.server";
import { env } from "../env";
import {
  jwks,
  LICENCE_REUSE_SECONDS,
  licenceFor,
  OFFLINE_GRACE_SECONDS,
  rotateLicenceKey,
  sealPlaintextKeys,
  signLicense,
  licenceExpiry,
} from "./license.server";

vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");

const DAY = 24 * 60 * 60 * 1000;
const entitlement: Entitlement = {
  plan: "free",
  status: "active",
  features: [],
  device_limit: 1,
  expires_at: null,
  renews: false,
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

  it("signs the very bytes jose's SignJWT would (decision 0032)", async () => {
    const at = new Date("2026-11-24T05:30:00.900Z");
    const token = await signLicense({ userId: "u1", deviceId: "d1", entitlement }, test.db, at);
    const [row] = await test.db.select().from(signingKeys).orderBy(desc(signingKeys.createdAt));
    const key = await importJWK(openJwk(row!.privateJwk), "EdDSA");
    const iat = Math.floor(at.getTime() / 1000);
    const expected = await new SignJWT({ entitlement, device_id: "d1" })
      .setProtectedHeader({ alg: "EdDSA", kid: row!.kid, typ: "JWT" })
      .setIssuer(env().SITE_URL)
      .setSubject("u1")
      .setAudience("desktop")
      .setIssuedAt(iat)
      .setExpirationTime(iat + OFFLINE_GRACE_SECONDS)
      .sign(key);
    expect(token).toBe(expected);
  });

  it("hands a device the licence of the last minute only while it says the same", async () => {
    // After the keys the test above made (its last one is dated 8 days ahead).
    const start = new Date(Date.now() + 30 * DAY);
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const input = { userId: "u2", deviceId: "d2", entitlement };
    const first = await licenceFor(input, test.db, start);
    expect(await licenceFor(input, test.db, at(LICENCE_REUSE_SECONDS - 1))).toBe(first);
    // A minute on: a new one, issued then.
    const later = await licenceFor(input, test.db, at(LICENCE_REUSE_SECONDS));
    expect(later).not.toBe(first);
    expect(decodeJwt(later).iat).toBe(Math.floor(at(LICENCE_REUSE_SECONDS).getTime() / 1000));
    // Another entitlement, another user or another device: signed for what it is, at once.
    const pro = { ...entitlement, plan: "pro-monthly", device_limit: 3 };
    const changed = await licenceFor({ ...input, entitlement: pro }, test.db, at(61));
    expect(decodeJwt(changed).entitlement).toEqual(pro);
    expect(decodeJwt(await licenceFor(input, test.db, at(62))).entitlement).toEqual(entitlement);
    expect(decodeJwt(await licenceFor({ ...input, userId: "u3" }, test.db, at(63))).sub).toBe("u3");
    expect(
      decodeJwt(await licenceFor({ ...input, deviceId: "d3" }, test.db, at(63))).device_id,
    ).toBe("d3");
    // A rotated key signs the next one at once (the rotation's notice, in this process).
    const held = await licenceFor(input, test.db, at(64));
    expect(await licenceFor(input, test.db, at(65))).toBe(held);
    const { kid } = await rotateLicenceKey(test.db, at(65));
    const rotated = await licenceFor(input, test.db, at(66));
    expect(JSON.parse(Buffer.from(rotated.split(".")[0]!, "base64url").toString()).kid).toBe(kid);
  });
});

describe("licenceExpiry", () => {
  const iat = Date.UTC(2026, 10, 28, 12) / 1000;
  const inDays = (days: number) => new Date((iat + days * 86_400) * 1000).toISOString();

  it("gives 7 days offline to Free and to a plan that renews", () => {
    expect(licenceExpiry(entitlement, iat)).toBe(iat + OFFLINE_GRACE_SECONDS);
    const renewing = { ...entitlement, plan: "pro-monthly", expires_at: inDays(2), renews: true };
    expect(licenceExpiry(renewing, iat)).toBe(iat + OFFLINE_GRACE_SECONDS);
  });

  it("never runs past the end of a plan that does not renew (a trial, a grant, a cancellation)", () => {
    const trial = { ...entitlement, plan: "pro-monthly", expires_at: inDays(3), renews: false };
    expect(licenceExpiry(trial, iat)).toBe(iat + 3 * 86_400);
    const longer = { ...trial, expires_at: inDays(30) };
    expect(licenceExpiry(longer, iat)).toBe(iat + OFFLINE_GRACE_SECONDS);
  });

  it("finding 12: never runs past the first charge of a plan that has paid nothing yet", () => {
    const authorised = {
      ...entitlement,
      plan: "pro-monthly",
      expires_at: inDays(2),
      renews: true,
      paid_until: inDays(2),
    };
    expect(licenceExpiry(authorised, iat)).toBe(iat + 2 * 86_400);
  });
});
