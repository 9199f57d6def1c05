import { data } from "react-router";
import {
  buildFeed,
  FEED_NAMES,
  feedResponse,
  type FeedName,
} from "~/.server/releases/feeds/index.server";
import type { Route } from "./+types/feed";

const CHANNELS = ["stable", "beta"] as const;

/**
 * The update feeds, a public API shipped apps call for years (README: "Update feeds"):
 * /updates/{stable|beta}/latest.yml, latest-mac.yml (electron-updater), tauri.json (Tauri v2),
 * appcast.xml (Sparkle). An unknown channel or feed is a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const channel = CHANNELS.find((name) => name === params.channel);
  const feed = FEED_NAMES.find((name) => name === params.feed) as FeedName | undefined;
  if (!channel || !feed) throw data("Unknown update channel or feed.", { status: 404 });
  const built = await buildFeed(request, channel, feed);
  if (!built)
    return new Response("Nothing published for this feed yet.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" },
    });
  return feedResponse(request, built);
}
