/**
 * Single-use tokens in `one_time_tokens`: only the SHA-256 hash is stored, so a copy of the
 * database holds no usable link.
 */
import { and, eq, isNull } from "drizzle-orm";
import { type OneTimeTokenPurpose, oneTimeTokens } from "../db/schema";
import type { Executor } from "../db";
import { hashToken, randomToken } from "./tokens";

export async function issueOneTimeToken(
  database: Executor,
  input: {
    purpose: OneTimeTokenPurpose;
    userId: string;
    ttlMs: number;
    payload?: Record<string, unknown>;
  },
): Promise<string> {
  const token = randomToken();
  await database.insert(oneTimeTokens).values({
    tokenHash: hashToken(token),
    purpose: input.purpose,
    userId: input.userId,
    payload: input.payload ?? {},
    expiresAt: new Date(Date.now() + input.ttlMs),
  });
  return token;
}

export type BurnResult =
  | { ok: true; userId: string; payload: unknown }
  | { ok: false; reason: "unknown or already used" | "expired" };

/**
 * Marks a token used and returns it, whether or not it was still valid: the first attempt burns
 * it, so a guessed or intercepted token gets exactly one try.
 */
export async function burnOneTimeToken(
  database: Executor,
  token: string,
  purpose: OneTimeTokenPurpose,
): Promise<BurnResult> {
  const [row] = await database
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
      ),
    )
    .returning();
  if (!row) return { ok: false, reason: "unknown or already used" };
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: "expired" };
  return { ok: true, userId: row.userId, payload: row.payload };
}
