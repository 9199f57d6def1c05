import { robotsTxt } from "~/.server/content/sitemap.server";
import { textResponse } from "~/.server/content/text.server";
import { env } from "~/.server/env";

/** /robots.txt: crawl everything public, stay out of private areas, find the sitemap. */
export function loader() {
  return textResponse(robotsTxt(env().SITE_URL), "text/plain; charset=utf-8");
}
