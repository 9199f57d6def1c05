import { recordReferral, referralCodeInCookies } from "../referrals/record.server";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { db } from "../db";
import * as schema from "../db/schema";
import { env } from "../env";
import { errorForLog } from "../log-errors";
import { logger } from "../logger";
import { queueMail } from "../mail/outbox.server";
import { accountDeletedMessage, resetPasswordMessage, verifyEmailMessage } from "../mail/templates";
import { eraseUserData } from "../account/erase.server";
import { afterPasswordChange } from "../account/password-changed.server";
import { queueAccountMail } from "../account/security-mail.server";
import { kickJobs } from "../jobs/kick";
import { hashToken } from "../security/tokens";
import { cancelEverythingFor } from "../billing/manage.server";
import { bearer } from "better-auth/plugins";
import { dataDirSecret } from "../security/data-dir-secret.server";
import { desktopWebSession } from "./desktop-plugin";
import { authSchemaOptions } from "./options";
import { refuseUnlistedHttpEndpoints } from "./http-endpoints";
import { passwordResetQueued } from "./password-reset-plugin";
import { secondStepWatch } from "./second-step-plugin";
import { sensitiveActions } from "./sensitive-plugin";
import { signUpNeedsItsMail, verificationMailKey } from "./sign-up-plugin";

/** The header our server sets to the client IP it trusts; any copy sent by a client is dropped. */
import { CLIENT_IP_HEADER } from "./client-ip";

export { CLIENT_IP_HEADER };

/**
 * BETTER_AUTH_SECRET, or (embedded database only) a secret generated once and kept in DATA_DIR,
 * so a fresh checkout signs in with no setup and sessions survive restarts.
 */
function authSecret(): string {
  const { BETTER_AUTH_SECRET, DATA_DIR } = env();
  return BETTER_AUTH_SECRET ?? dataDirSecret(DATA_DIR, "auth-secret");
}

/**
 * Every plugin of the running instance (tests enumerate their endpoints against the HTTP
 * allow-list). None adds tables: bearer reads "Authorization: Bearer <signed session token>"
 * (callable functions from non-browser clients); desktopWebSession is the app → web sign-in;
 * sensitiveActions asks desktop-opened browsers to confirm their password first (decision 0018).
 * requireSignature: a bearer token must carry the cookie's HMAC, so the raw token of a leaked
 * `session` row is not a credential.
 */
export function authPlugins() {
  return [
    ...authSchemaOptions.plugins,
    bearer({ requireSignature: true }),
    desktopWebSession(),
    sensitiveActions(),
    secondStepWatch(),
    signUpNeedsItsMail(),
    passwordResetQueued(),
  ];
}

function createAuth() {
  const config = env();
  const limit = { window: 60, max: config.AUTH_RATE_LIMIT };
  return betterAuth({
    ...authSchemaOptions,
    plugins: authPlugins(),
    // Over HTTP, only the endpoints browsers and the desktop app call (decision 0028).
    hooks: { before: refuseUnlistedHttpEndpoints },
    appName: "Pinout",
    baseURL: config.SITE_URL,
    basePath: "/api/auth",
    secret: authSecret(),
    trustedOrigins: config.TRUSTED_ORIGINS,
    database: drizzleAdapter(db(), { provider: "pg", schema }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        // Queued for the mail lane: the request answers at once whatever the mail server does.
        await queueMail(db(), resetPasswordMessage({ to: user.email, name: user.name, url }));
        kickJobs();
      },
      // Whoever held a desktop device before the reset (a thief, say) is out with the old password.
      onPasswordReset: async ({ user }) => {
        await afterPasswordChange(user.id, null);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60,
      sendVerificationEmail: async ({ user, url, token }) => {
        // Keyed by the account, so sign-up can tell that its mail was stored (sign-up-plugin.ts).
        await queueMail(
          db(),
          verifyEmailMessage({ to: user.email, name: user.name, url }),
          verificationMailKey(user.id, hashToken(token)),
        );
        kickJobs();
      },
    },
    databaseHooks: {
      user: {
        create: {
          // An account made after following a referral link (email or Google): recorded as
          // referred. Never fails the sign-up: the referral is a bonus, the account is not.
          after: async (created, endpoint) => {
            const cookies =
              endpoint?.headers?.get("cookie") ?? endpoint?.request?.headers.get("cookie");
            const code = referralCodeInCookies(cookies);
            if (!code) return;
            try {
              await recordReferral(created, code);
            } catch (error) {
              logger().error({ err: error, userId: created.id }, "referral not recorded");
            }
          },
        },
      },
    },
    user: {
      // The old address confirms first, then the new one gets a verification link, and the email
      // changes only when that is opened. Our server checks the password before asking
      // (change-email.server.ts); the endpoint is not reachable over HTTP.
      changeEmail: {
        enabled: true,
        sendChangeEmailConfirmation: async ({ user, newEmail, url, token }) => {
          await queueAccountMail(db(), {
            template: "confirm-email-change",
            userId: user.id,
            dedupe: hashToken(token),
            to: user.email,
            newEmail,
            url,
          });
          kickJobs();
        },
      },
      deleteUser: {
        enabled: true,
        // Personal data outside Better Auth's own tables goes with the account (DPDP Act s.12).
        beforeDelete: async (user) => {
          await cancelEverythingFor(user.id);
          await eraseUserData(user.id, user.email);
        },
        afterDelete: async (user) => {
          await queueMail(db(), accountDeletedMessage({ to: user.email, name: user.name }));
          kickJobs();
        },
      },
    },
    socialProviders:
      config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
        ? {
            google: {
              clientId: config.GOOGLE_CLIENT_ID,
              clientSecret: config.GOOGLE_CLIENT_SECRET,
            },
          }
        : {},
    session: {
      ...authSchemaOptions.session,
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // A signed copy of the session in a short-lived cookie: most requests skip the database.
      cookieCache: { enabled: true, maxAge: 5 * 60 },
    },
    rateLimit: {
      ...authSchemaOptions.rateLimit,
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/*": limit,
        "/sign-up/*": limit,
        "/request-password-reset": limit,
        "/reset-password": limit,
        "/send-verification-email": limit,
        "/get-session": false,
      },
    },
    advanced: {
      useSecureCookies: config.SITE_URL.startsWith("https:"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    logger: {
      log(level, message, ...args) {
        // Better Auth's messages never carry credentials; keep them in our JSON log stream. An
        // error it passes along is logged with its causes (issue 32, point 10: "Failed to run
        // background task:" alone said nothing); other values by their type only.
        const log = logger().child({ component: "auth" });
        const errors = args.map((arg) => errorForLog(arg));
        const fields = errors.length > 0 ? { errors } : {};
        if (level === "error") log.error(fields, message);
        else if (level === "warn") log.warn(fields, message);
        else log.debug(fields, message);
      },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let instance: Auth | undefined;

/** The Better Auth instance of this process, created after the database is open. */
export function auth(): Auth {
  instance ??= createAuth();
  return instance;
}

/** Whether "Continue with Google" can be offered. */
export function googleEnabled(): boolean {
  return Boolean(env().GOOGLE_CLIENT_ID);
}
