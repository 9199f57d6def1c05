import { sitemapXml } from "~/.server/content/sitemap.server";
import { textResponse } from "~/.server/content/text.server";
import { env } from "~/.server/env";

/** /sitemap.xml: every public page, with the date it last changed where that is known. */
export function loader() {
  return textResponse(sitemapXml(env().SITE_URL), "application/xml; charset=utf-8");
}
