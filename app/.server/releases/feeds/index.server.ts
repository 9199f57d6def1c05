import { createHash } from "node:crypto";
import { site } from "~/config/site";
import type { Platform } from "~/lib/platform";
import { CLIENT_IP_HEADER } from "../../auth/client-ip";
import { env } from "../../env";
import type { ReleaseChannel } from "../../db/schema";
import { renderReleaseNotes } from "../notes.server";
import { builtOnce, candidatesOf, releaseSnapshot } from "../release-cache.server";
import { countAppVersion, countReleaseEvent } from "../counters.server";
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

/** A feed's bytes, type and ETag: built once per release snapshot and what the client gets. */
export interface BuiltFeed {
  body: string;
  contentType: string;
  etag: string;
}

function built(body: string, contentType: string): BuiltFeed {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return { body, contentType, etag };
}

/**
 * A feed body as a response: private (a rollout answers clients differently), revalidated every
 * time, with an ETag so an unchanged feed costs a 304.
 */
export function feedResponse(request: Request, feed: BuiltFeed): Response {
  const headers = {
    "Content-Type": feed.contentType,
    "Cache-Control": "private, no-cache",
    ETag: feed.etag,
    Vary: "X-User-Staging-Id",
  };
  if (request.headers.get("if-none-match") === feed.etag)
    return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : feed.body, { status: 200, headers });
}

function countCheck(
  version: string,
  platform: Platform,
  arch: string,
  channel: ReleaseChannel,
): void {
  countReleaseEvent({ version, platform, arch, channel, event: "update_check" });
}

/**
 * The body of a channel's static feed, or null when the channel has nothing to offer. Which
 * release a client gets is decided per request (its rollout bucket); the body of that decision
 * is built once per snapshot of the releases.
 */
export async function buildFeed(
  request: Request,
  channel: ReleaseChannel,
  feed: FeedName,
): Promise<BuiltFeed | null> {
  const snapshot = await releaseSnapshot();
  const releases = candidatesOf(snapshot, channel);
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
    countCheck(selection.release.version, platform, "any", channel);
    const key = `${feed}|${channel}|${selection.release.id}|${selection.stagingPercentage ?? ""}`;
    return builtOnce(snapshot, key, () =>
      built(electronFeed(selection, platform, selection.release.notes), "text/yaml; charset=utf-8"),
    );
  }

  if (feed === "tauri.json") {
    const selection = selectRelease(releases, {
      channel,
      usable: (asset) => tauriUsable(asset.platform)(asset),
      clientId,
    });
    if (!selection) return null;
    const { release } = selection;
    return builtOnce(snapshot, `${feed}|${channel}|${release.id}`, () =>
      built(
        JSON.stringify(tauriStatic(release, siteUrl, release.notes), null, 2),
        "application/json; charset=utf-8",
      ),
    );
  }

  const selection = selectRelease(releases, { channel, usable: sparkleUsable, clientId });
  if (!selection) return null;
  countCheck(selection.release.version, "mac", "any", channel);
  const { release } = selection;
  return builtOnce(snapshot, `${feed}|${channel}|${release.id}`, () => {
    const history = olderReleases(releases, channel, release.version, sparkleUsable, 4);
    return built(
      appcast({
        title: site.product.name,
        siteUrl,
        feedUrl: `${siteUrl}/updates/${channel}/appcast.xml`,
        minimumVersion: snapshot.minimums.mac ?? null,
        releases: [release, ...history].map((entry) => ({
          release: entry,
          notesHtml: renderReleaseNotes(entry.notes),
        })),
      }),
      "application/xml; charset=utf-8",
    );
  });
}

/**
 * Tauri's dynamic endpoint: the update for a client of this target, arch and version, or null
 * (204) when it has the newest release its rollout offers it.
 */
export async function tauriUpdateFor(
  request: Request,
  input: { platform: Platform; arch: string; currentVersion: string; channel: ReleaseChannel },
): Promise<BuiltFeed | null> {
  const snapshot = await releaseSnapshot();
  countAppVersion(input.currentVersion, input.platform);
  const selection = selectRelease(candidatesOf(snapshot, input.channel), {
    channel: input.channel,
    usable: tauriUsable(input.platform, input.arch),
    clientId: clientIdOf(request),
  });
  if (!selection) return null;
  const { release } = selection;
  countCheck(release.version, input.platform, input.arch, input.channel);
  if (!isVersion(input.currentVersion) || !isOlder(input.currentVersion, release.version))
    return null;
  const file = tauriFileFor(release, input.platform, input.arch);
  if (!file) return null;
  const minimum = snapshot.minimums[input.platform] ?? null;
  const critical = release.critical || (minimum !== null && isOlder(input.currentVersion, minimum));
  const key = `tauri|${input.channel}|${release.id}|${file.id}|${critical}`;
  return builtOnce(snapshot, key, () =>
    built(
      JSON.stringify(tauriDynamic(release, file, env().SITE_URL, release.notes, critical)),
      "application/json; charset=utf-8",
    ),
  );
}
