import { getSession } from "~/.server/auth/session";
import type { Route } from "./+types/session";

/** Who is signed in, for the navbar's client-side check. Never cached: it differs per visitor. */
export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSession(request);
  return Response.json(
    { user: session?.user ?? null },
    { headers: { "Cache-Control": "private, no-store", Vary: "Cookie, Authorization" } },
  );
}
