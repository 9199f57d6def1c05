import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { type Database, db as defaultDb } from "../db";
import { signingKeys } from "../db/schema";
import { randomToken } from "../security/tokens";

/**
 * The site's Ed25519 update key: it signs Sparkle enclosures published without a signature of
 * their own. Its public half goes into the app's Info.plist as `SUPublicEDKey` (shown on
 * /admin/releases). One key for every instance, kept in the database they share.
 */
async function updateKeyRow(database: Database) {
  const find = async () =>
    (
      await database.select().from(signingKeys).where(eq(signingKeys.purpose, "update")).limit(1)
    )[0];
  const existing = await find();
  if (existing) return existing;
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", {
    crv: "Ed25519",
    extractable: true,
  });
  await database
    .insert(signingKeys)
    .values({
      kid: `update-${randomToken().slice(0, 12)}`,
      purpose: "update",
      publicJwk: await exportJWK(publicKey),
      privateJwk: await exportJWK(privateKey),
    })
    .onConflictDoNothing();
  // Two instances may race to create it: whichever row exists first is the key.
  const created = await find();
  if (!created) throw new Error("no update key");
  return created;
}

/** Base64 of the raw 32-byte public key: the `SUPublicEDKey` format of Sparkle's generate_keys. */
export async function sparklePublicKey(database: Database = defaultDb()): Promise<string> {
  const row = await updateKeyRow(database);
  return Buffer.from((row.publicJwk as JWK).x ?? "", "base64url").toString("base64");
}

/**
 * Base64 Ed25519 signature of the whole file, as Sparkle's sign_update makes it. Ed25519 signs
 * the message itself (no pre-hash), so the bytes are in memory once, at publish time only.
 */
export async function sparkleSign(bytes: Buffer, database: Database = defaultDb()) {
  const row = await updateKeyRow(database);
  const key = createPrivateKey({ key: row.privateJwk as JWK as never, format: "jwk" });
  return sign(null, bytes, key).toString("base64");
}

export function verifySparkleSignature(
  bytes: Buffer,
  signature: string,
  publicKeyBase64: string,
): boolean {
  const key = createPublicKey({
    key: {
      kty: "OKP",
      crv: "Ed25519",
      x: Buffer.from(publicKeyBase64, "base64").toString("base64url"),
    },
    format: "jwk",
  });
  return verify(null, bytes, key, Buffer.from(signature, "base64"));
}
