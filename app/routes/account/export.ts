import { exportUserData } from "~/.server/account/account.server";
import { requireSession } from "~/.server/auth/session";
import type { Route } from "./+types/export";

/** GET /account/security/export: the signed-in user's data as a JSON download. */
export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const body = await exportUserData(user.id);
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${new Date().toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
