import { data } from "react-router";
import {
  feedClientOfRequest,
  outcomeResponse,
  velopackOutcome,
  velopackPackage,
} from "~/.server/releases/feeds/index.server";
import { serveReleaseFile } from "~/.server/releases/serve.server";
import type { Route } from "./+types/velopack";

/**
 * Velopack's update source (README: "Update feeds"): an app built with
 * `new SimpleWebSource("https://…/updates/velopack")` asks for `releases.{channel}.json` here and
 * downloads the packages it lists from the same folder. A package is served as every release file
 * is (counted, byte ranges, S3 redirect).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const file = params.file;
  if (file.startsWith("releases."))
    return outcomeResponse(
      request,
      await velopackOutcome(file, new URL(request.url).searchParams, feedClientOfRequest(request)),
    );
  if (!/^[\w.+-]{1,200}\.nupkg$/i.test(file)) throw data("Not found.", { status: 404 });
  const found = await velopackPackage(file);
  if (!found) throw data("Not found.", { status: 404 });
  return serveReleaseFile(request, found.release, found.asset);
}
