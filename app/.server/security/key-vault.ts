import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { JWK } from "jose";
import { z } from "zod";
import { env } from "../env";
import { dataDirSecret } from "./data-dir-secret";

/**
 * Private signing keys at rest: AES-256-GCM under a key from the environment, so a copy of the
 * database (a backup, a leaked dump) cannot sign licences or updates.
 */
const sealedSchema = z.object({
  sealed: z.literal("A256GCM"),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});
export type SealedJwk = z.infer<typeof sealedSchema>;

let cachedKey: Buffer | undefined;

/** KEYS_ENCRYPTION_SECRET; else DATA_DIR's generated secret (embedded) or BETTER_AUTH_SECRET. */
function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const config = env();
  const secret =
    config.KEYS_ENCRYPTION_SECRET ??
    (config.DATABASE_URL
      ? config.BETTER_AUTH_SECRET
      : dataDirSecret(config.DATA_DIR, "keys-encryption-secret"));
  if (!secret) throw new Error("no secret to encrypt signing keys with");
  // HKDF separates this key from any other use of the same secret.
  cachedKey = Buffer.from(hkdfSync("sha256", secret, "pinout", "signing-keys-at-rest", 32));
  return cachedKey;
}

export function isSealed(value: unknown): value is SealedJwk {
  return sealedSchema.safeParse(value).success;
}

export function sealJwk(jwk: JWK, key: Buffer = encryptionKey()): SealedJwk {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(jwk), "utf8"), cipher.final()]);
  return {
    sealed: "A256GCM",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
}

/** The private JWK of a stored row; a plaintext row (from before sealing) is read as it is. */
export function openJwk(stored: unknown, key: Buffer = encryptionKey()): JWK {
  if (!isSealed(stored)) return stored as JWK;
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(stored.iv, "base64"));
  decipher.setAuthTag(Buffer.from(stored.tag, "base64"));
  const plain = Buffer.concat([
    decipher.update(Buffer.from(stored.data, "base64")),
    decipher.final(),
  ]);
  return JSON.parse(plain.toString("utf8")) as JWK;
}
