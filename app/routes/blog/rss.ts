import { RSS_CONTENT_TYPE, rssFeed } from "~/.server/content/feeds.server";
import { textResponse } from "~/.server/content/text.server";
import { env } from "~/.server/env";

/** /blog/rss.xml: RSS 2.0 feed of the newest posts. */
export function loader() {
  return textResponse(rssFeed(env().SITE_URL), RSS_CONTENT_TYPE);
}
