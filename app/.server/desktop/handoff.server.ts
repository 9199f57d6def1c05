import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { isAllowedDesktopRedirect } from "~/lib/desktop-redirect";
import { type Database, db as defaultDb } from "../db";
import { oneTimeTokens, user as users } from "../db/schema";
import { burnOneTimeToken, issueOneTimeToken } from "../security/one-time-tokens.server";
import { hashToken, PKCE_CHALLENGE, randomToken } from "../security/tokens";

export const HANDOFF_TTL_MS = 5 * 60 * 1000;
export const WEB_SESSION_TTL_MS = 2 * 60 * 1000;

/** The query the desktop app opens /login-via with (web → app). */
export const desktopLoginSchema = z.object({
  client: z.literal("desktop", { error: "client must be desktop" }),
  redirect_uri: z.string().refine(isAllowedDesktopRedirect, {
    error: "redirect_uri must be a loopback http URL (127.0.0.1 or [::1]) or the app's own scheme",
  }),
  state: z.string().min(8, { error: "state must be at least 8 characters" }).max(256),
  code_challenge: z.string().regex(PKCE_CHALLENGE, {
    error: "code_challenge must be an S256 challenge (43 base64url characters)",
  }),
  code_challenge_method: z.literal("S256", { error: "code_challenge_method must be S256" }),
  // Shown on the confirmation page ("… on Asha's MacBook (Mac)"), so the person can tell which
  // app asks; optional for apps that do not send them.
  device_name: z.string().trim().min(1).max(100).optional(),
  platform: z.enum(["mac", "windows"]).optional(),
});

export type DesktopLoginRequest = z.infer<typeof desktopLoginSchema>;

/** The "Continue as …" form of /login-via (app → web): the token, and where to go after. */
export const continueWithTokenSchema = z.object({
  token: z.string().min(1).max(200),
  next: z.string().max(2048).optional(),
});

interface HandoffPayload {
  redirectUri: string;
  state: string;
  codeChallenge: string;
}

/** Issues the single-use token that the app exchanges with its PKCE verifier (valid 5 minutes). */
export async function issueHandoffToken(
  userId: string,
  request: DesktopLoginRequest,
  database: Database = defaultDb(),
): Promise<string> {
  const token = randomToken();
  const payload: HandoffPayload = {
    redirectUri: request.redirect_uri,
    state: request.state,
    codeChallenge: request.code_challenge,
  };
  await database.insert(oneTimeTokens).values({
    tokenHash: hashToken(token),
    purpose: "desktop_handoff",
    userId,
    payload,
    expiresAt: new Date(Date.now() + HANDOFF_TTL_MS),
  });
  return token;
}

/** Where /login-success sends the browser: only for a live token of this user. */
export async function handoffDestination(
  token: string,
  userId: string,
  database: Database = defaultDb(),
) {
  const [row] = await database
    .select()
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, "desktop_handoff"),
        eq(oneTimeTokens.userId, userId),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    );
  return row ? (row.payload as HandoffPayload) : null;
}

type TokenPayloads = {
  desktop_handoff: HandoffPayload;
  web_session: WebSessionPayload;
};

/**
 * Marks a token used and returns it, whether or not it was still valid: the first attempt burns
 * it, so a guessed or intercepted token gets exactly one try.
 */
export async function burnToken<P extends keyof TokenPayloads>(
  token: string,
  purpose: P,
  database: Database = defaultDb(),
) {
  const burnt = await burnOneTimeToken(database, token, purpose);
  if (!burnt.ok) return burnt;
  // Written only by this module, for this purpose (the row's purpose is part of the match).
  return { ok: true as const, userId: burnt.userId, payload: burnt.payload as TokenPayloads[P] };
}

/** What a web-session token knows: the device that asked for it, whose browser session it opens. */
export interface WebSessionPayload {
  deviceId: string;
  /**
   * Where the app waits to be told that what it opened the browser for is done (issue 57, point
   * 4): its loopback address or its own scheme, checked as a sign-in's redirect_uri is.
   */
  returnUri?: string;
}

/**
 * App → web: a token (2 minutes, single use) that signs the browser in as the app's user. The
 * session it opens is marked with the device (docs/decisions/0018).
 */
export async function issueWebSessionToken(
  userId: string,
  deviceId: string,
  database: Database = defaultDb(),
  options: { returnUri?: string } = {},
): Promise<string> {
  const payload: WebSessionPayload = {
    deviceId,
    ...(options.returnUri ? { returnUri: options.returnUri } : {}),
  };
  return issueOneTimeToken(database, {
    purpose: "web_session",
    userId,
    ttlMs: WEB_SESSION_TTL_MS,
    payload: { ...payload },
  });
}

/**
 * App → web, before the token is spent: whose it is, for the "Continue as …?" page. Only a live
 * token answers (unused, unexpired); reading it never burns it, so opening the link signs nobody in.
 */
export async function peekWebSessionToken(
  token: string,
  database: Database = defaultDb(),
): Promise<{ email: string; returnUri?: string } | null> {
  // Lengths the sign-in endpoint refuses as well: not worth a query.
  if (token.length === 0 || token.length > 200) return null;
  const [row] = await database
    .select({ email: users.email, payload: oneTimeTokens.payload })
    .from(oneTimeTokens)
    .innerJoin(users, eq(users.id, oneTimeTokens.userId))
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, "web_session"),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    );
  if (!row) return null;
  // Written only by issueWebSessionToken, for this purpose.
  const returnUri = (row.payload as WebSessionPayload | null)?.returnUri;
  return { email: row.email, ...(returnUri ? { returnUri } : {}) };
}
