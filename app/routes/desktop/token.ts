import { exchangeHandoff, tokenRequestSchema } from "~/.server/desktop/devices.server";
import { fromError, json, methodNotAllowed, readBody } from "~/.server/desktop/http.server";
import type { Route } from "./+types/token";

/** POST /api/desktop/token: handoff token + PKCE verifier → the device's access and refresh tokens. */
export async function action({ request }: Route.ActionArgs) {
  const body = await readBody(request, tokenRequestSchema);
  if (body instanceof Response) return body;
  try {
    return json(await exchangeHandoff(body));
  } catch (error) {
    return fromError(error);
  }
}

export const loader = () => methodNotAllowed("POST");
