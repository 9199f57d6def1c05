import { Outlet } from "react-router";
import { guardMiddleware } from "~/.server/auth/guards";
import type { Route } from "./+types/auth";

/**
 * Every route nested under this layout in app/routes.ts needs the `auth` guard
 * (app/.server/auth/guards.ts): it runs before any loader or action below it.
 */
export const middleware: Route.MiddlewareFunction[] = [guardMiddleware("auth")];

export default function AuthGuard() {
  return <Outlet />;
}
