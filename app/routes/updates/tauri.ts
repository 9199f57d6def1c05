import { data } from "react-router";
import { feedResponse, tauriUpdateFor } from "~/.server/releases/feeds/index.server";
import { archOfTauriArch, platformOfTauriTarget } from "~/.server/releases/targets";
import { isVersion } from "~/.server/releases/versions";
import type { Route } from "./+types/tauri";

/**
 * Tauri v2's dynamic update endpoint: /updates/tauri/{{target}}/{{arch}}/{{current_version}}
 * (add `?channel=beta` for betas). 204 when there is nothing newer, 200 with the update otherwise.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const platform = platformOfTauriTarget(params.target);
  const arch = archOfTauriArch(params.arch);
  if (!platform || !arch) throw data("Unknown target or arch.", { status: 404 });
  if (!isVersion(params.current_version))
    throw data("current_version must be a version such as 1.2.0.", { status: 400 });
  const channelParam = new URL(request.url).searchParams.get("channel") ?? "stable";
  if (channelParam !== "stable" && channelParam !== "beta")
    throw data("Unknown update channel.", { status: 404 });
  const update = await tauriUpdateFor(request, {
    platform,
    arch,
    currentVersion: params.current_version,
    channel: channelParam,
  });
  if (!update) return new Response(null, { status: 204, headers: { "Cache-Control": "no-cache" } });
  return feedResponse(request, update);
}
