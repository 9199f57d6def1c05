import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { Entitlement } from "../billing/entitlement.server";
import { type Database, db as defaultDb } from "../db";
import { offlineLicences, signingKeys } from "../db/schema";
import { env } from "../env";
import { onPublicContentChange, publicContentChanged } from "../http/public-content.server";
import { isSealed, openJwk, sealJwk } from "../security/key-vault.server";
import { randomToken } from "../security/tokens";

/** How long the app may run offline on one licence before it must reach the server again. */
export const OFFLINE_GRACE_SECONDS = 7 * 24 * 60 * 60;

type KeyRow = typeof signingKeys.$inferSelect;
type Purpose = KeyRow["purpose"];

/** The update key (Sparkle) lives in the same table but never signs or verifies licences. */
const LICENCE_KEYS = eq(signingKeys.purpose, "licence");

/** A new Ed25519 key of a purpose, its private half sealed (docs/decisions/0017). */
export async function createSigningKey(
  purpose: Purpose,
  database: Database = defaultDb(),
  createdAt: Date = new Date(),
): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", {
    crv: "Ed25519",
    extractable: true,
  });
  const kid = `${purpose === "update" ? "update-" : ""}${randomToken().slice(0, 16)}`;
  await database.insert(signingKeys).values({
    kid,
    purpose,
    publicJwk: await exportJWK(publicKey),
    privateJwk: sealJwk(await exportJWK(privateKey)),
    createdAt,
  });
  return kid;
}

async function licenceKeys(database: Database): Promise<KeyRow[]> {
  return database
    .select()
    .from(signingKeys)
    .where(LICENCE_KEYS)
    .orderBy(desc(signingKeys.createdAt));
}

/** The newest licence key signs; on first use one is made for every instance sharing the database. */
async function currentKey(database: Database): Promise<KeyRow> {
  const [existing] = await licenceKeys(database);
  if (existing) return existing;
  await createSigningKey("licence", database);
  // Two instances may race on first use: both keys are valid; the newest signs from now on.
  const [created] = await licenceKeys(database);
  if (!created) throw new Error("no signing key");
  return created;
}

/**
 * Licence keys still needed to verify: the current one, and each older key until the last
 * licence it signed has expired (its successor's creation + the offline grace period).
 */
function verifyingKeys(rows: KeyRow[], now: Date, inUse: ReadonlySet<string>): KeyRow[] {
  return rows.filter((row, index) => {
    if (index === 0) return true;
    // A key that signed a licence file still valid verifies until that file expires (issue 57).
    if (inUse.has(row.kid)) return true;
    const retiredAt = rows[index - 1]?.createdAt ?? now;
    return retiredAt.getTime() + OFFLINE_GRACE_SECONDS * 1000 > now.getTime();
  });
}

/** The public keys that verify licences (served at /.well-known/jwks.json). */
export async function jwks(database: Database = defaultDb(), now: Date = new Date()) {
  await currentKey(database);
  const rows = verifyingKeys(
    await licenceKeys(database),
    now,
    await keysOfLicenceFiles(database, now),
  );
  return {
    keys: rows.map((row) => ({
      ...(row.publicJwk as JWK),
      kid: row.kid,
      alg: "EdDSA",
      use: "sig",
    })),
  };
}

/**
 * `npm run keys:rotate`: a new licence key signs from now on; older keys stay in the JWKS until
 * the licences they signed expire, then are deleted.
 */
export async function rotateLicenceKey(
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<{ kid: string; kept: string[]; removed: string[] }> {
  const kid = await createSigningKey("licence", database, now);
  const rows = await licenceKeys(database);
  const keep = new Set(
    verifyingKeys(rows, now, await keysOfLicenceFiles(database, now)).map((row) => row.kid),
  );
  const removed = rows.filter((row) => !keep.has(row.kid)).map((row) => row.kid);
  if (removed.length > 0)
    await database.delete(signingKeys).where(and(LICENCE_KEYS, inArray(signingKeys.kid, removed)));
  // The JWKS changed, and every process keeping the signing key in memory must read it again:
  // the same notice as any public content (NOTIFY on PostgreSQL).
  await publicContentChanged(database);
  return { kid, kept: [...keep].filter((value) => value !== kid), removed };
}

/** Seals private keys stored in plain text before sealing existed (once, at start-up). */
export async function sealPlaintextKeys(database: Database = defaultDb()): Promise<number> {
  const rows = await database.select().from(signingKeys);
  let sealed = 0;
  for (const row of rows) {
    if (isSealed(row.privateJwk)) continue;
    await database
      .update(signingKeys)
      .set({ privateJwk: sealJwk(row.privateJwk as JWK) })
      .where(eq(signingKeys.kid, row.kid));
    sealed += 1;
  }
  return sealed;
}

/** The keys that signed licence files still valid at `now`. */
async function keysOfLicenceFiles(database: Database, now: Date): Promise<Set<string>> {
  const rows = await database
    .selectDistinct({ kid: offlineLicences.kid })
    .from(offlineLicences)
    .where(gt(offlineLicences.expiresAt, now));
  return new Set(rows.map((row) => row.kid));
}

/** The claims of a licence file for an offline machine (issue 57, point 3; decision 0063). */
export interface LicenceFileClaims {
  entitlement: Entitlement;
  /** SHA-256 (hex) of the machine's fingerprint: the app compares its own. */
  machine: { fingerprint_sha256: string; name: string };
  licence_id: string;
  iss: string;
  sub: string;
  aud: "desktop-offline";
  iat: number;
  exp: number;
}

/** Signs a licence file's claims: its JWS and the key's id. */
export type LicenceFileSigner = (claims: Omit<LicenceFileClaims, "iss" | "aud">) => {
  token: string;
  kid: string;
};

/**
 * The current licence key, ready to sign licence files without another query: read before the
 * transaction that decides the file (on the embedded database a query on the pool inside a
 * transaction would wait for that transaction to end).
 */
export async function licenceFileSigner(
  database: Database = defaultDb(),
): Promise<LicenceFileSigner> {
  const key = await signingKey(database);
  return (claims) => {
    const full: LicenceFileClaims = {
      entitlement: claims.entitlement,
      machine: claims.machine,
      licence_id: claims.licence_id,
      iss: env().SITE_URL,
      sub: claims.sub,
      aud: "desktop-offline",
      iat: claims.iat,
      exp: claims.exp,
    };
    const signingInput = `${key.header}.${base64url(JSON.stringify(full))}`;
    const signature = sign(null, Buffer.from(signingInput), key.privateKey);
    return { token: `${signingInput}.${signature.toString("base64url")}`, kid: key.kid };
  };
}

/** The claims of a licence, in the order `jose`'s SignJWT writes them. */
interface LicenceClaims {
  entitlement: Entitlement;
  device_id: string;
  iss: string;
  sub: string;
  aud: "desktop";
  iat: number;
  exp: number;
}

/**
 * A compact JWS (EdDSA) of the entitlement, valid offline for 7 days: the JWT `jose`'s SignJWT
 * makes (`{ entitlement, device_id }`, then iss, sub, aud, iat, exp; header alg, kid, typ), signed
 * with node:crypto's synchronous Ed25519 rather than through WebCrypto, which took twice the CPU
 * on every /api/desktop/me (decision 0032). Ed25519 signatures are deterministic: for the same
 * claims the bytes are jose's (license.server.test.ts compares them).
 */
export async function signLicense(
  input: { userId: string; deviceId: string; entitlement: Entitlement },
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<string> {
  const key = await signingKey(database);
  const iat = Math.floor(now.getTime() / 1000);
  const claims: LicenceClaims = {
    entitlement: input.entitlement,
    device_id: input.deviceId,
    iss: env().SITE_URL,
    sub: input.userId,
    aud: "desktop",
    iat,
    exp: licenceExpiry(input.entitlement, iat),
  };
  const signingInput = `${key.header}.${base64url(JSON.stringify(claims))}`;
  const signature = sign(null, Buffer.from(signingInput), key.privateKey);
  return `${signingInput}.${signature.toString("base64url")}`;
}

/**
 * A licence is valid offline for 7 days, but never past the end of a plan that does not renew (a
 * trial, a grant, a cancelled subscription), nor past the first charge of one that has paid
 * nothing yet, nor past a floating seat's lease: offline, the app then falls back to Free on the day the plan ends, not up to a
 * week later (issue 36, point 1; issue 53, finding 12).
 */
export function licenceExpiry(entitlement: Entitlement, iat: number): number {
  const grace = iat + OFFLINE_GRACE_SECONDS;
  // Never past what is paid or granted (issue 53, finding 12): a plan that renews only through
  // a first charge not made yet ends where its payment would start.
  const planEnd = entitlement.paid_until ?? (entitlement.renews ? null : entitlement.expires_at);
  // A floating seat's lease (issue 57): a machine that stops checking in gives its seat back
  // when the lease ends, and its offline licence ends with it.
  const ends = [planEnd, entitlement.lease_until].filter((end): end is string => Boolean(end));
  if (ends.length === 0) return grace;
  const end = Math.min(...ends.map((value) => Math.floor(Date.parse(value) / 1000)));
  return Math.max(iat, Math.min(grace, end));
}

/** How long a licence signed for a device is handed out again instead of a new one. */
export const LICENCE_REUSE_SECONDS = 60;
/** Devices whose last licence is remembered (per process); the oldest is forgotten first. */
const MAX_REMEMBERED_LICENCES = 10_000;
const recentLicences = new Map<string, { claims: string; token: string; signedAt: number }>();

/**
 * The licence for a device: the one signed for it in the last minute when it would say the same
 * thing (same user, entitlement, issuer and signing key), else a new one (decision 0032). Nothing
 * in it can be stale: what it says is compared on every call, so a changed entitlement or a
 * rotated key gives a new licence at once; only its `iat` and `exp` may be up to a minute older
 * than the call (the 7 days offline run from a minute earlier at most). Revoked or signed-out
 * devices never get here: the caller checked the token first.
 */
export async function licenceFor(
  input: { userId: string; deviceId: string; entitlement: Entitlement },
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<string> {
  const key = await signingKey(database);
  const claims = `${key.kid}\n${env().SITE_URL}\n${input.userId}\n${JSON.stringify(input.entitlement)}`;
  const recent = recentLicences.get(input.deviceId);
  const age = now.getTime() - (recent?.signedAt ?? 0);
  if (recent && recent.claims === claims && age >= 0 && age < LICENCE_REUSE_SECONDS * 1000)
    return recent.token;
  const token = await signLicense(input, database, now);
  recentLicences.delete(input.deviceId);
  if (recentLicences.size >= MAX_REMEMBERED_LICENCES) {
    const oldest = recentLicences.keys().next().value;
    if (oldest !== undefined) recentLicences.delete(oldest);
  }
  // Signed at `now` to the second: iat is whole seconds.
  recentLicences.set(input.deviceId, {
    claims,
    token,
    signedAt: Math.floor(now.getTime() / 1000) * 1000,
  });
  return token;
}

function base64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

/**
 * The signing key, read and imported once per process (decision 0032) rather than on every
 * /api/desktop/me: read again when a rotation anywhere announces itself (`rotateLicenceKey` sends
 * the public-content notice, on PostgreSQL through NOTIFY), and at least every 30 s should a
 * notice be lost. Older keys verify for 7 days, so a licence signed meanwhile stays valid.
 */
interface Signer {
  kid: string;
  /** The protected header, encoded once: `{"alg":"EdDSA","kid":…,"typ":"JWT"}`. */
  header: string;
  privateKey: KeyObject;
}
const SIGNER_TTL_MS = 30_000;
let generation = 0;
const signers = new WeakMap<
  Database,
  { signer: Promise<Signer>; loadedAt: number; generation: number }
>();
onPublicContentChange(() => {
  generation += 1;
});

function signingKey(database: Database): Promise<Signer> {
  const held = signers.get(database);
  if (held && Date.now() - held.loadedAt < SIGNER_TTL_MS && held.generation === generation)
    return held.signer;
  const loading = (async () => {
    const key = await currentKey(database);
    const jwk = openJwk(key.privateJwk);
    if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519")
      throw new Error(`licence key ${key.kid} is not an Ed25519 key`);
    return {
      kid: key.kid,
      header: base64url(JSON.stringify({ alg: "EdDSA", kid: key.kid, typ: "JWT" })),
      privateKey: createPrivateKey({ key: { ...jwk }, format: "jwk" }),
    };
  })();
  signers.set(database, { signer: loading, loadedAt: Date.now(), generation });
  // A failed read is not kept: the next licence tries again.
  loading.catch(() => {
    if (signers.get(database)?.signer === loading) signers.delete(database);
  });
  return loading;
}
