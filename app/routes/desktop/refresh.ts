import { z } from "zod";
import { refreshDevice } from "~/.server/desktop/devices.server";
import { fromError, json, methodNotAllowed, readBody } from "~/.server/desktop/http.server";
import type { Route } from "./+types/refresh";

/** POST /api/desktop/refresh: rotates the token pair; reusing an old refresh token revokes the device. */
export async function action({ request }: Route.ActionArgs) {
  const body = await readBody(request, z.object({ refresh_token: z.string().min(1).max(200) }));
  if (body instanceof Response) return body;
  try {
    return json(await refreshDevice(body.refresh_token));
  } catch (error) {
    return fromError(error);
  }
}

export const loader = () => methodNotAllowed("POST");
