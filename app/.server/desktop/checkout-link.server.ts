/**
 * Buying from inside the app (issue 57, point 4): the app asks for a link for an errand (buy Pro
 * on a cycle, change a team's seats, update the payment method, resume), and gets a single-use
 * address that opens the browser signed in (the app → web token of /login-via, 2 minutes) on the
 * page that does it, the plan or seats chosen and the buyer's details prefilled from their billing
 * profile. The app's return address, when it names one, is remembered for "Return to the app".
 */
import { z } from "zod";
import { site } from "~/config/site";
import { isAllowedDesktopRedirect } from "~/lib/desktop-redirect";
import { PAID_PLAN_IDS } from "~/lib/plans";
import { env } from "../env";
import { managesTeam } from "../teams/teams.server";
import { issueWebSessionToken, WEB_SESSION_TTL_MS } from "./handoff.server";

const returnUri = z
  .string()
  .max(2048)
  .refine(isAllowedDesktopRedirect, {
    error: "return_uri must be a loopback http URL (127.0.0.1 or [::1]) or the app's own scheme",
  })
  .optional();

export const checkoutLinkSchema = z.discriminatedUnion(
  "action",
  [
    z.object({
      action: z.literal("buy"),
      plan: z.enum(PAID_PLAN_IDS, { error: `plan must be one of ${PAID_PLAN_IDS.join(", ")}` }),
      return_uri: returnUri,
    }),
    z.object({
      action: z.literal("seats"),
      team_id: z.string().min(1).max(100),
      seats: z
        .number({ error: "seats must be a whole number" })
        .int({ error: "seats must be a whole number" })
        .min(1, { error: "seats must be at least 1" })
        .max(site.teams.maxSeats, { error: `seats must be at most ${site.teams.maxSeats}` }),
      cycle: z.enum(["monthly", "yearly"], { error: "cycle must be monthly or yearly" }),
      return_uri: returnUri,
    }),
    z.object({ action: z.literal("update-payment-method"), return_uri: returnUri }),
    z.object({ action: z.literal("resume"), return_uri: returnUri }),
  ],
  { error: "action must be buy, seats, update-payment-method or resume" },
);
export type CheckoutLinkRequest = z.output<typeof checkoutLinkSchema>;

/** The page each errand ends on: the site's own paths, never one the app names. */
function pageFor(request: CheckoutLinkRequest): string {
  switch (request.action) {
    case "buy":
      return `/checkout?plan=${request.plan}`;
    case "seats":
      return `/account/team/${encodeURIComponent(request.team_id)}/seats?${new URLSearchParams({
        seats: String(request.seats),
        cycle: request.cycle,
      })}`;
    case "update-payment-method":
      return "/billing";
    case "resume":
      return "/account/subscription";
  }
}

export type CheckoutLinkOutcome =
  | { ok: true; url: string; expiresIn: number }
  | { ok: false; status: 403; error: "forbidden"; description: string };

export async function checkoutLinkFor(
  device: { userId: string; deviceId: string },
  request: CheckoutLinkRequest,
): Promise<CheckoutLinkOutcome> {
  if (request.action === "seats" && !(await managesTeam(device.userId, request.team_id)))
    return {
      ok: false,
      status: 403,
      error: "forbidden",
      description: "only the team's owner and billing managers change its seats",
    };
  const token = await issueWebSessionToken(device.userId, device.deviceId, undefined, {
    returnUri: request.return_uri,
  });
  const url = new URL("/login-via", env().SITE_URL);
  url.search = new URLSearchParams({ token, next: pageFor(request) }).toString();
  return { ok: true, url: url.toString(), expiresIn: WEB_SESSION_TTL_MS / 1000 };
}
