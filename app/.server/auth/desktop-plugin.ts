import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";
import { WEB_SESSION_TOKEN_INVALID } from "~/lib/auth-messages";
import { burnToken } from "../desktop/handoff.server";

/**
 * Custom-token sign-in: the desktop app hands the browser a single-use token
 * (POST /api/desktop/web-session-token) and this endpoint turns it into a normal browser session.
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
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ ok: true });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
