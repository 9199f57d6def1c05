import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { and, eq, like } from "drizzle-orm";
import { db } from "../db";
import { jobs, user as users } from "../db/schema";
import { errorForLog } from "../log-errors";
import { logger } from "../logger";

/** The outbox key of an account's verification mail (one per link). */
export function verificationMailKey(userId: string, tokenHash: string): string {
  return `verify:${userId}:${tokenHash}`;
}

/** What sign-up answers when the account could not be created with its mail. */
export const SIGN_UP_NOT_STORED =
  "We could not create your account just now, and nothing was saved. Please try again in a few minutes.";

/**
 * A new account and its verification mail are stored together or not at all (issue 32, point
 * 10). Better Auth creates the user, then queues the mail in a hook whose failure it only logs
 * (a full disk, a database that went away): the person was told to check their inbox for a mail
 * that never existed, and could not sign up again (the address was taken). After sign-up, this
 * checks that the mail is in the outbox; if not, the unverified account it just made is removed
 * and the answer is a 503 saying nothing was saved, so trying again works.
 */
export function signUpNeedsItsMail() {
  return {
    id: "sign-up-needs-its-mail",
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === "/sign-up/email",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { user?: { id?: unknown } } | undefined;
            const userId = returned && !(returned instanceof APIError) ? returned.user?.id : null;
            if (typeof userId !== "string") return;
            const database = db();
            const [created] = await database
              .select({ verified: users.emailVerified })
              .from(users)
              .where(eq(users.id, userId));
            // A known address answers with a made-up user (nothing was created), and a verified
            // account needs no mail.
            if (!created || created.verified) return;
            const [mail] = await database
              .select({ id: jobs.id })
              .from(jobs)
              .where(like(jobs.dedupeKey, `${verificationMailKey(userId, "")}%`))
              .limit(1);
            if (mail) return;
            logger().error(
              { component: "auth", userId },
              "sign-up: the verification mail was not stored; removing the new account",
            );
            try {
              await database
                .delete(users)
                .where(and(eq(users.id, userId), eq(users.emailVerified, false)));
            } catch (error) {
              // The database is failing outright: the account stays, unverified; signing in
              // with its password queues a new link (sendOnSignIn).
              logger().error(
                { component: "auth", userId, error: errorForLog(error) },
                "sign-up: the new account could not be removed",
              );
            }
            throw new APIError(
              "SERVICE_UNAVAILABLE",
              { message: SIGN_UP_NOT_STORED, code: "SIGN_UP_NOT_STORED" },
              { "Retry-After": "60" },
            );
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
