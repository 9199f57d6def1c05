import { exportUserData } from "~/.server/account/export.server";
import { requireSession } from "~/.server/auth/session";
import { env } from "~/.server/env";
import { readConsent } from "~/lib/analytics/consent";
import type { Route } from "./+types/export";

/** GET /account/security/export: the signed-in user's data as a JSON download. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const body = await exportUserData(user.id, {
    siteUrl: env().SITE_URL,
    consent: readConsent(request.headers.get("cookie") ?? ""),
  });
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
