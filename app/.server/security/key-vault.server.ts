import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { JWK } from "jose";
import { z } from "zod";
import { env } from "../env";
import { dataDirSecret } from "./data-dir-secret.server";

/**
 * Secrets at rest: AES-256-GCM under a key from the environment, so a copy of the database (a
 * backup, a leaked dump) cannot sign licences or updates, nor use a link waiting in the mail queue.
 */
const sealedSchema = z.object({
  sealed: z.literal("A256GCM"),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});
export type Sealed = z.infer<typeof sealedSchema>;

/** Each use gets its own key (HKDF info), so one kind of sealed value never opens as another. */
type KeyUse =
  "signing-keys-at-rest" | "queued-secrets" | "analytics-ids" | "trial-mailboxes" | "machine-ids";

const cachedKeys = new Map<KeyUse, Buffer>();

/** KEYS_ENCRYPTION_SECRET; else DATA_DIR's generated secret (embedded) or BETTER_AUTH_SECRET. */
export function encryptionKey(use: KeyUse): Buffer {
  const cached = cachedKeys.get(use);
  if (cached) return cached;
  const config = env();
  const secret =
    config.KEYS_ENCRYPTION_SECRET ??
    (config.DATABASE_URL
      ? config.BETTER_AUTH_SECRET
      : dataDirSecret(config.DATA_DIR, "keys-encryption-secret"));
  if (!secret) throw new Error("no secret to encrypt signing keys with");
  // HKDF separates this key from any other use of the same secret.
  const key = Buffer.from(hkdfSync("sha256", secret, "pinout", use, 32));
  cachedKeys.set(use, key);
  return key;
}

export function isSealed(value: unknown): value is Sealed {
  return sealedSchema.safeParse(value).success;
}

function seal(plain: string, key: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return {
    sealed: "A256GCM",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
}

function open(stored: Sealed, key: Buffer): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(stored.iv, "base64"));
  decipher.setAuthTag(Buffer.from(stored.tag, "base64"));
  return Buffer.concat([
    decipher.update(Buffer.from(stored.data, "base64")),
    decipher.final(),
  ]).toString("utf8");
}

export function sealJwk(jwk: JWK, key: Buffer = encryptionKey("signing-keys-at-rest")): Sealed {
  return seal(JSON.stringify(jwk), key);
}

/** The private JWK of a stored row; a plaintext row (from before sealing) is read as it is. */
export function openJwk(stored: unknown, key: Buffer = encryptionKey("signing-keys-at-rest")): JWK {
  if (!isSealed(stored)) return stored as JWK;
  return JSON.parse(open(stored, key)) as JWK;
}

/** A secret that must wait in the database for a while (a link in a queued mail). */
export function sealSecret(value: string, key: Buffer = encryptionKey("queued-secrets")): Sealed {
  return seal(value, key);
}

/** Opens a value of `sealSecret`; anything else (or a tampered one) throws. */
export function openSecret(stored: unknown, key: Buffer = encryptionKey("queued-secrets")): string {
  if (!isSealed(stored)) throw new Error("not a sealed secret");
  return open(stored, key);
}
