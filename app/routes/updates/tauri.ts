import {
  feedClientOfRequest,
  outcomeResponse,
  tauriOutcome,
} from "~/.server/releases/feeds/index.server";
import type { RouteHandle } from "~/lib/route-handle";
import type { Route } from "./+types/tauri";

/**
 * Tauri v2's dynamic update endpoint: /updates/tauri/{{target}}/{{arch}}/{{current_version}}
 * (add `?channel=beta` for betas). 204 when there is nothing newer, 200 with the update otherwise.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const channel = new URL(request.url).searchParams.get("channel");
  return outcomeResponse(
    request,
    await tauriOutcome(params, channel, feedClientOfRequest(request)),
  );
}

/** Every installed app polls this: answered before express when it can (decision 0032). */
export const handle: RouteHandle = { fastAnswer: "tauri-update" };
