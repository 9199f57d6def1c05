import { desktopOpenApi } from "~/.server/desktop/openapi";

/**
 * GET /api/desktop/openapi.json (issue 57, point 6): the desktop API described in OpenAPI 3.1,
 * for those who build the app or another client.
 */
export function loader() {
  return Response.json(desktopOpenApi(), { headers: { "Cache-Control": "public, max-age=300" } });
}
