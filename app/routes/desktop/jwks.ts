import { jwks } from "~/.server/desktop/license.server";

/** GET /.well-known/jwks.json: the public keys that verify offline licences. */
export async function loader() {
  return Response.json(await jwks(), { headers: { "Cache-Control": "public, max-age=3600" } });
}
