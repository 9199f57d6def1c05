import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { WEB_SESSION_TOKEN_INVALID } from "~/lib/auth-messages";
import { db } from "../db";
import { desktopDevices } from "../db/schema";
import { burnToken } from "../desktop/handoff.server";

/** The device that asked for the token, if it is still signed in to this user's account. */
async function liveDevice(deviceId: unknown, userId: string): Promise<string | null> {
  // Tokens issued before devices were recorded in them carry none: refused, the app asks again.
  if (typeof deviceId !== "string" || !z.uuid().safeParse(deviceId).success) return null;
  const [row] = await db()
    .select({ id: desktopDevices.id })
    .from(desktopDevices)
    .where(
      and(
        eq(desktopDevices.id, deviceId),
        eq(desktopDevices.userId, userId),
        isNull(desktopDevices.revokedAt),
      ),
    );
  return row?.id ?? null;
}

/**
 * Custom-token sign-in: the desktop app hands the browser a single-use token
 * (POST /api/desktop/web-session-token) and this endpoint turns it into a browser session. The
 * session is marked with the device: it never saw a password or a two-factor code, so sensitive
 * actions ask for them first (docs/decisions/0018), and signing the device out ends it.
 */
export function desktopWebSession() {
  return {
    id: "desktop-web-session",
    endpoints: {
      signInWithDesktopToken: createAuthEndpoint(
        "/sign-in/desktop-token",
        { method: "POST", body: z.object({ token: z.string().min(1).max(200) }) },
        async (ctx) => {
          const burnt = await burnToken(ctx.body.token, "web_session");
          if (!burnt.ok) throw new APIError("UNAUTHORIZED", { message: WEB_SESSION_TOKEN_INVALID });
          const user = await ctx.context.internalAdapter.findUserById(burnt.userId);
          if (!user) throw new APIError("UNAUTHORIZED", { message: WEB_SESSION_TOKEN_INVALID });
          const deviceId = await liveDevice(burnt.payload.deviceId, user.id);
          if (!deviceId) throw new APIError("UNAUTHORIZED", { message: WEB_SESSION_TOKEN_INVALID });
          const session = await ctx.context.internalAdapter.createSession(user.id, false, {
            desktopDeviceId: deviceId,
          });
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ ok: true });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
