import { data } from "react-router";
import { findPublishedFile } from "~/.server/releases/queries.server";
import { serveReleaseFile } from "~/.server/releases/serve.server";
import { isVersion } from "~/.server/releases/versions";
import type { Route } from "./+types/file";

/**
 * GET /releases/:version/:file: any file of a published release by its name, the URL the update
 * feeds point at (electron-updater also fetches `<installer>.blockmap` here). A stable public URL.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isVersion(params.version) || !/^[\w.+-]{1,200}$/.test(params.file))
    throw data("Not found.", { status: 404 });
  const found = await findPublishedFile(params.version, params.file);
  if (!found) throw data("Not found.", { status: 404 });
  return serveReleaseFile(request, found.release, found.asset);
}
