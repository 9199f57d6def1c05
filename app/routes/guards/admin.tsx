import { Outlet } from "react-router";
import { guardMiddleware } from "~/.server/auth/guards";
import type { Route } from "./+types/admin";

/**
 * Every route nested under this layout in app/routes.ts needs the `admin` guard
 * (app/.server/auth/guards.ts): it runs before any loader or action below it.
 */
export const middleware: Route.MiddlewareFunction[] = [guardMiddleware("admin")];

export default function AdminGuard() {
  return <Outlet />;
}
