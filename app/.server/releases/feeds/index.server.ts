import { createHash } from "node:crypto";
import { site } from "~/config/site";
import type { Platform } from "~/lib/platform";
import { CLIENT_IP_HEADER } from "../../auth/client-ip";
import { env } from "../../env";
import type { ReleaseChannel } from "../../db/schema";
import { renderReleaseNotes } from "../notes.server";
import { minimumVersions } from "../policy.server";
import { feedCandidates } from "../queries.server";
import { countAppVersion, countReleaseEvent } from "../stats.server";
import { isOlder, isVersion } from "../versions";
import { electronFeed, electronUsable } from "./electron";
import { olderReleases, selectRelease } from "./select";
import { appcast, sparkleUsable } from "./sparkle";
import { tauriDynamic, tauriFileFor, tauriStatic, tauriUsable } from "./tauri";

export const FEED_NAMES = ["latest.yml", "latest-mac.yml", "tauri.json", "appcast.xml"] as const;
export type FeedName = (typeof FEED_NAMES)[number];

/**
 * The id a client is bucketed by in a staged rollout: the id it sends (`?client_id=`, or
 * electron-updater's staging id header), else its IP. Hashed before use; never stored.
 */
export function clientIdOf(request: Request): string {
  const url = new URL(request.url);
  const sent = url.searchParams.get("client_id") ?? request.headers.get("x-user-staging-id");
  if (sent && sent.length <= 200) return `id:${sent}`;
  return `ip:${request.headers.get(CLIENT_IP_HEADER) ?? "unknown"}`;
}

function hasClientId(request: Request): boolean {
  const url = new URL(request.url);
  return url.searchParams.has("client_id") || request.headers.has("x-user-staging-id");
}

/**
 * A feed body as a response: private (a rollout answers clients differently), revalidated every
 * time, with an ETag so an unchanged feed costs a 304.
 */
export function feedResponse(request: Request, body: string, contentType: string): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = {
    "Content-Type": contentType,
    "Cache-Control": "private, no-cache",
    ETag: etag,
    Vary: "X-User-Staging-Id",
  };
  if (request.headers.get("if-none-match") === etag)
    return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}

async function countCheck(
  version: string,
  platform: Platform,
  arch: string,
  channel: ReleaseChannel,
): Promise<void> {
  await countReleaseEvent({ version, platform, arch, channel, event: "update_check" });
}

/** The body of a channel's static feed, or null when the channel has nothing to offer. */
export async function buildFeed(
  request: Request,
  channel: ReleaseChannel,
  feed: FeedName,
): Promise<{ body: string; contentType: string } | null> {
  const releases = await feedCandidates(channel);
  const clientId = clientIdOf(request);
  const siteUrl = env().SITE_URL;

  if (feed === "latest.yml" || feed === "latest-mac.yml") {
    const platform = feed === "latest.yml" ? "windows" : "mac";
    // electron-updater decides a staged rollout itself from stagingPercentage, unless the client
    // sent its staging id, in which case the server decides the same way for it.
    const selection = selectRelease(releases, {
      channel,
      usable: electronUsable(platform),
      clientId: hasClientId(request) ? clientId : null,
      clientDecides: true,
    });
    if (!selection) return null;
    await countCheck(selection.release.version, platform, "any", channel);
    return {
      body: electronFeed(selection, platform, selection.release.notes),
      contentType: "text/yaml; charset=utf-8",
    };
  }

  if (feed === "tauri.json") {
    const selection = selectRelease(releases, {
      channel,
      usable: (asset) => tauriUsable(asset.platform)(asset),
      clientId,
    });
    if (!selection) return null;
    return {
      body: JSON.stringify(
        tauriStatic(selection.release, siteUrl, selection.release.notes),
        null,
        2,
      ),
      contentType: "application/json; charset=utf-8",
    };
  }

  const selection = selectRelease(releases, { channel, usable: sparkleUsable, clientId });
  if (!selection) return null;
  await countCheck(selection.release.version, "mac", "any", channel);
  const history = olderReleases(releases, channel, selection.release.version, sparkleUsable, 4);
  const minimum = (await minimumVersions()).mac ?? null;
  return {
    body: appcast({
      title: site.product.name,
      siteUrl,
      feedUrl: `${siteUrl}/updates/${channel}/appcast.xml`,
      minimumVersion: minimum,
      releases: [selection.release, ...history].map((release) => ({
        release,
        notesHtml: renderReleaseNotes(release.notes),
      })),
    }),
    contentType: "application/xml; charset=utf-8",
  };
}

/**
 * Tauri's dynamic endpoint: the update for a client of this target, arch and version, or null
 * (204) when it has the newest release its rollout offers it.
 */
export async function tauriUpdateFor(
  request: Request,
  input: { platform: Platform; arch: string; currentVersion: string; channel: ReleaseChannel },
): Promise<Record<string, unknown> | null> {
  const releases = await feedCandidates(input.channel);
  await countAppVersion(input.currentVersion, input.platform);
  const selection = selectRelease(releases, {
    channel: input.channel,
    usable: tauriUsable(input.platform, input.arch),
    clientId: clientIdOf(request),
  });
  if (!selection) return null;
  await countCheck(selection.release.version, input.platform, input.arch, input.channel);
  if (!isVersion(input.currentVersion) || !isOlder(input.currentVersion, selection.release.version))
    return null;
  const file = tauriFileFor(selection.release, input.platform, input.arch);
  if (!file) return null;
  const minimum = (await minimumVersions())[input.platform] ?? null;
  const critical =
    selection.release.critical || (minimum !== null && isOlder(input.currentVersion, minimum));
  return tauriDynamic(selection.release, file, env().SITE_URL, selection.release.notes, critical);
}
