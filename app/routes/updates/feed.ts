import {
  feedClientOfRequest,
  outcomeResponse,
  staticFeedOutcome,
} from "~/.server/releases/feeds/index.server";
import type { RouteHandle } from "~/lib/route-handle";
import type { Route } from "./+types/feed";

/**
 * The update feeds, a public API shipped apps call for years (README: "Update feeds"):
 * /updates/{stable|beta}/latest.yml, latest-mac.yml (electron-updater), tauri.json (Tauri v2),
 * appcast.xml (Sparkle). An unknown channel or feed is a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  return outcomeResponse(request, await staticFeedOutcome(params, feedClientOfRequest(request)));
}

/** Every installed app polls this: answered before express when it can (decision 0032). */
export const handle: RouteHandle = { fastAnswer: "update-feed" };
