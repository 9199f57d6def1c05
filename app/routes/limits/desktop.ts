import { apiRateLimit } from "~/.server/security/rate-limit.server";
import type { Route } from "./+types/desktop";

/** Every route nested under this layout in app/routes.ts shares the `desktop` API rate limit. */
export const middleware: Route.MiddlewareFunction[] = [apiRateLimit("desktop")];
