import { Outlet } from "react-router";
import { guardMiddleware } from "~/.server/auth/guards";
import type { Route } from "./+types/account";

/**
 * Every route nested under this layout in app/routes.ts needs the `account` guard
 * (app/.server/auth/guards.ts): signed in, as `auth`, with the account state read in the same
 * statement as the session, since every page of the account area shows it (decision 0035).
 */
export const middleware: Route.MiddlewareFunction[] = [guardMiddleware("account")];

export default function AccountGuard() {
  return <Outlet />;
}
