/**
 * Referral codes: one per customer, made the first time their account shows the link, never
 * changed. Eight characters of Crockford base32 (no I, L, O, U), so a code read aloud or typed
 * from a phone survives; 40 bits, so they cannot be walked.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { db as defaultDb, type Executor } from "../db";
import { referralCodes } from "../db/schema";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const REFERRAL_CODE = /^[0-9A-HJKMNP-TV-Z]{8}$/;

function newCode(): string {
  return [...randomBytes(8)].map((byte) => ALPHABET[byte % 32]).join("");
}

/** The customer's code, made now if they have none (two tabs at once make one). */
export async function referralCodeOf(
  userId: string,
  database: Executor = defaultDb(),
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [existing] = await database
      .select({ code: referralCodes.code })
      .from(referralCodes)
      .where(eq(referralCodes.userId, userId));
    if (existing) return existing.code;
    // A clash on the code (one in a trillion) or another tab's insert: read again.
    await database.insert(referralCodes).values({ userId, code: newCode() }).onConflictDoNothing();
  }
  throw new Error(`no referral code could be made for ${userId}`);
}

/** Whose code this is, or null (any case; anything that is not a code is nobody's). */
export async function referrerOf(
  code: string,
  database: Executor = defaultDb(),
): Promise<string | null> {
  const normal = code.trim().toUpperCase();
  if (!REFERRAL_CODE.test(normal)) return null;
  const [row] = await database
    .select({ userId: referralCodes.userId })
    .from(referralCodes)
    .where(eq(referralCodes.code, normal));
  return row?.userId ?? null;
}
