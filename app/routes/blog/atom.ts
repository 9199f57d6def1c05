import { ATOM_CONTENT_TYPE, atomFeed } from "~/.server/content/feeds.server";
import { textResponse } from "~/.server/content/text.server";
import { env } from "~/.server/env";

/** /blog/atom.xml: Atom 1.0 feed of the newest posts. */
export function loader() {
  return textResponse(atomFeed(env().SITE_URL), ATOM_CONTENT_TYPE);
}
