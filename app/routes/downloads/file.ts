import { data } from "react-router";
import { isPlatform } from "~/lib/platform";
import { findReleaseByVersion, latestStableCached } from "~/.server/releases/queries.server";
import { installerFor, serveReleaseFile } from "~/.server/releases/serve.server";
import { isVersion } from "~/.server/releases/versions";
import type { Route } from "./+types/file";

/** GET /download/:platform[/:version]: the installer of the latest stable release, or of a version. */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isPlatform(params.platform))
    throw data("Unknown platform: use mac or windows.", { status: 404 });
  if (params.version !== undefined && !isVersion(params.version))
    throw data("Unknown version.", { status: 404 });
  const release = params.version
    ? await findReleaseByVersion(params.version)
    : await latestStableCached();
  const asset =
    release && release.status === "published" ? installerFor(release, params.platform) : undefined;
  if (!release || !asset) throw data("No release for this platform yet.", { status: 404 });
  return serveReleaseFile(request, release, asset);
}
