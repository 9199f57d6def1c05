import { asc, eq } from "drizzle-orm";
import type { JWK } from "jose";
import { type Database, db as defaultDb } from "../db";
import { signingKeys } from "../db/schema";
import { createSigningKey } from "../desktop/license.server";
import { openJwk } from "../security/key-vault.server";
import { type MessageReader, signStreamed, verifyStreamed } from "./ed25519-stream";

/**
 * The site's Ed25519 update key: it signs Sparkle enclosures published without a signature of
 * their own. Its public half goes into the app's Info.plist as `SUPublicEDKey` (shown on
 * /admin/releases). One key for every instance, kept in the database they share.
 */
async function updateKeyRow(database: Database) {
  const find = async () =>
    (
      await database
        .select()
        .from(signingKeys)
        .where(eq(signingKeys.purpose, "update"))
        .orderBy(asc(signingKeys.createdAt))
        .limit(1)
    )[0];
  const existing = await find();
  if (existing) return existing;
  await createSigningKey("update", database);
  // Two instances may race to create it: the oldest row is the key, for everyone.
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
 * Base64 Ed25519 signature of the whole file, as Sparkle's sign_update makes it, read as a stream
 * twice (ed25519-stream.ts): memory stays flat whatever the file's size.
 */
export async function sparkleSign(read: MessageReader, database: Database = defaultDb()) {
  const row = await updateKeyRow(database);
  const seed = Buffer.from((openJwk(row.privateJwk) as JWK).d ?? "", "base64url");
  if (seed.length !== 32) throw new Error("the update key is not an Ed25519 key");
  return Buffer.from(await signStreamed(seed, read)).toString("base64");
}

/**
 * Whether a signature supplied with a file was made by the site's update key: the key the apps
 * check with (`SUPublicEDKey`). One made with another key would fail in every app, after the
 * download; refusing it at publish says so while the operator is there.
 */
export async function sparkleSignedBySite(
  read: MessageReader,
  signature: string,
  database: Database = defaultDb(),
): Promise<boolean> {
  const publicKey = Buffer.from(await sparklePublicKey(database), "base64");
  return verifyStreamed(publicKey, Buffer.from(signature, "base64"), read);
}
