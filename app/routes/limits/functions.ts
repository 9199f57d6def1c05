import { apiRateLimit } from "~/.server/security/rate-limit.server";
import type { Route } from "./+types/functions";

/** Every route nested under this layout in app/routes.ts shares the `functions` API rate limit. */
export const middleware: Route.MiddlewareFunction[] = [apiRateLimit("functions")];
