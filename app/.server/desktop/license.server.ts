import { desc, eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import type { Entitlement } from "../billing/entitlement.server";
import { type Database, db as defaultDb } from "../db";
import { signingKeys } from "../db/schema";
import { env } from "../env";
import { randomToken } from "../security/tokens";

/** How long the app may run offline on one licence before it must reach the server again. */
export const OFFLINE_GRACE_SECONDS = 7 * 24 * 60 * 60;

type KeyRow = typeof signingKeys.$inferSelect;

/** The update key (Sparkle) lives in the same table but never signs or verifies licences. */
const LICENCE_KEYS = eq(signingKeys.purpose, "licence");

async function currentKey(database: Database): Promise<KeyRow> {
  const [existing] = await database
    .select()
    .from(signingKeys)
    .where(LICENCE_KEYS)
    .orderBy(desc(signingKeys.createdAt))
    .limit(1);
  if (existing) return existing;
  // First use: one Ed25519 key for every instance, kept in the database they share.
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", {
    crv: "Ed25519",
    extractable: true,
  });
  const kid = randomToken().slice(0, 16);
  await database
    .insert(signingKeys)
    .values({ kid, publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) })
    .onConflictDoNothing();
  const [created] = await database
    .select()
    .from(signingKeys)
    .where(LICENCE_KEYS)
    .orderBy(desc(signingKeys.createdAt))
    .limit(1);
  if (!created) throw new Error("no signing key");
  return created;
}

/** The public keys that verify licences (served at /.well-known/jwks.json). */
export async function jwks(database: Database = defaultDb()) {
  await currentKey(database);
  const rows = await database
    .select()
    .from(signingKeys)
    .where(LICENCE_KEYS)
    .orderBy(desc(signingKeys.createdAt));
  return {
    keys: rows.map((row) => ({
      ...(row.publicJwk as JWK),
      kid: row.kid,
      alg: "EdDSA",
      use: "sig",
    })),
  };
}

/** A compact JWS (EdDSA) of the entitlement, valid offline for 7 days. */
export async function signLicense(
  input: { userId: string; deviceId: string; entitlement: Entitlement },
  database: Database = defaultDb(),
): Promise<string> {
  const key = await currentKey(database);
  const privateKey = await importJWK(key.privateJwk as JWK, "EdDSA");
  return new SignJWT({ entitlement: input.entitlement, device_id: input.deviceId })
    .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "JWT" })
    .setIssuer(env().SITE_URL)
    .setSubject(input.userId)
    .setAudience("desktop")
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + OFFLINE_GRACE_SECONDS)
    .sign(privateKey);
}
