import { apiRateLimit } from "~/.server/security/rate-limit.server";
import type { Route } from "./+types/updates";

/**
 * Every update feed nested under this layout in app/routes.ts shares the `updates` rate limit
 * (`UPDATES_RATE_LIMIT` per client per minute): anonymous, and each check may be counted in the
 * operator's statistics (issue 32, point 2).
 */
export const middleware: Route.MiddlewareFunction[] = [apiRateLimit("updates")];
