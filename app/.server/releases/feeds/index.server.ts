import { createHash } from "node:crypto";
import { data } from "react-router";
import { site } from "~/config/site";
import type { Platform } from "~/lib/platform";
import { CLIENT_IP_HEADER } from "../../auth/client-ip";
import type { FastBody, FastRequest, FastResponse } from "../../http/fast-answer-shapes";
import { env } from "../../env";
import type { ReleaseChannel } from "../../db/schema";
import { renderReleaseNotes } from "../notes.server";
import {
  builtOnce,
  candidatesOf,
  releaseSnapshot,
  type ReleaseSnapshot,
} from "../release-cache.server";
import { countAppVersion, countReleaseEvent } from "../counters.server";
import { archOfTauriArch, platformOfTauriTarget } from "../targets";
import { isOlder, isVersion, OTHER_VERSION } from "../versions";
import { electronFeed, electronUsable } from "./electron";
import { olderReleases, type ReleaseWithAssets, selectRelease } from "./select";
import { appcast, sparkleUsable } from "./sparkle";
import { tauriDynamic, tauriFileFor, tauriStatic, tauriUsable } from "./tauri";
import {
  velopackArchOf,
  velopackChannelOf,
  velopackFeed,
  velopackFullUsable,
  velopackUsable,
} from "./velopack";

export const FEED_NAMES = ["latest.yml", "latest-mac.yml", "tauri.json", "appcast.xml"] as const;
export type FeedName = (typeof FEED_NAMES)[number];
const CHANNELS = ["stable", "beta"] as const;
/** The appcast of every channel, its beta items tagged `<sparkle:channel>`. */
const ALL_CHANNELS = "all";

/**
 * Who is asking, as far as a staged rollout cares: the id it sends (`?client_id=`, or
 * electron-updater's staging id header) when it sends one, else its IP.
 */
export interface FeedClient {
  /** What the client is bucketed by: hashed before use, never stored. */
  id: string;
  /** Whether it sent an id at all (electron-updater then lets the server decide its bucket). */
  sentId: boolean;
}

/** The client of a feed request: from its query, its staging id header and its address. */
export function feedClientOf(
  searchParams: URLSearchParams,
  stagingId: string | null,
  ip: string | null,
): FeedClient {
  // Velopack sends its per-install staging id as `?stagingId=`.
  const sent = searchParams.get("client_id") ?? stagingId ?? searchParams.get("stagingId");
  return {
    id: sent && sent.length <= 200 ? `id:${sent}` : `ip:${ip ?? "unknown"}`,
    sentId: sent !== null,
  };
}

/** The same for a request that went through React Router (the IP is in CLIENT_IP_HEADER). */
export function feedClientOfRequest(request: Request): FeedClient {
  return feedClientOf(
    new URL(request.url).searchParams,
    request.headers.get("x-user-staging-id"),
    request.headers.get(CLIENT_IP_HEADER),
  );
}

/**
 * A feed's bytes, type and ETag: built once per release snapshot and what the client gets. The
 * fast path (server/fast-answers.ts) keeps its compressed copies beside it.
 */
export interface BuiltFeed extends FastBody {
  body: string;
  contentType: string;
  etag: string;
  /** Its headers (`feedHeaders`) and those with its body, made once with it: every poll uses them. */
  headers: Readonly<Record<string, string>>;
  bodyHeaders: Readonly<Record<string, string>>;
}

function built(body: string, contentType: string): BuiltFeed {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const bytes = Buffer.from(body);
  const headers = feedHeaders(contentType, etag);
  // The length declared, so a small feed goes out in one write (neither chunked nor compressed,
  // server/compression-threshold.ts).
  const bodyHeaders = { ...headers, "Content-Length": String(bytes.length) };
  return { body, contentType, etag, bytes, encoded: new Map(), headers, bodyHeaders };
}

/**
 * A feed's headers: private (a rollout answers clients differently), revalidated every time, with
 * an ETag so an unchanged feed costs a 304.
 */
function feedHeaders(contentType: string, etag: string): Record<string, string> {
  return {
    "Content-Type": contentType,
    "Cache-Control": "private, no-cache",
    ETag: etag,
    Vary: "X-User-Staging-Id",
  };
}

/** Nothing newer for a Tauri client: 204, asked again next time. */
const NO_UPDATE_HEADERS = { "Cache-Control": "no-cache" } as const;

/** A feed body as a response, 304 when the client has these bytes already. */
export function feedResponse(request: Request, feed: BuiltFeed): Response {
  if (request.headers.get("if-none-match") === feed.etag)
    return new Response(null, { status: 304, headers: feed.headers });
  return new Response(request.method === "HEAD" ? null : feed.body, {
    status: 200,
    headers: feed.bodyHeaders,
  });
}

/**
 * What a feed request gets, decided once for both ways it may arrive (the route's loader and its
 * fast answer): a feed, nothing to offer (204, or 404 for a static feed), or a refusal.
 */
export type FeedOutcome =
  | { kind: "feed"; feed: BuiltFeed }
  | { kind: "no-update" }
  | { kind: "nothing-published" }
  | { kind: "refused"; status: 400 | 404; message: string };

/** /updates/:channel/:feed */
export async function staticFeedOutcome(
  params: { channel?: string; feed?: string },
  client: FeedClient,
): Promise<FeedOutcome> {
  const feed = FEED_NAMES.find((name) => name === params.feed);
  // One appcast for every channel (issue 58, point 2): /updates/all/appcast.xml.
  if (params.channel === ALL_CHANNELS && feed === "appcast.xml") {
    const found = await buildAllChannelsAppcast(client);
    return found ? { kind: "feed", feed: found } : { kind: "nothing-published" };
  }
  const channel = CHANNELS.find((name) => name === params.channel);
  if (!channel || !feed)
    return { kind: "refused", status: 404, message: "Unknown update channel or feed." };
  const found = await buildFeed(client, channel, feed);
  return found ? { kind: "feed", feed: found } : { kind: "nothing-published" };
}

/** /updates/tauri/:target/:arch/:current_version, `?channel=beta` for betas. */
export async function tauriOutcome(
  params: { target?: string; arch?: string; current_version?: string },
  channelParam: string | null,
  client: FeedClient,
): Promise<FeedOutcome> {
  const platform = platformOfTauriTarget(params.target ?? "");
  const arch = archOfTauriArch(params.arch ?? "");
  if (!platform || !arch)
    return { kind: "refused", status: 404, message: "Unknown target or arch." };
  const currentVersion = params.current_version ?? "";
  if (!isVersion(currentVersion))
    return {
      kind: "refused",
      status: 400,
      message: "current_version must be a version such as 1.2.0.",
    };
  const channel = channelParam ?? "stable";
  if (channel !== "stable" && channel !== "beta")
    return { kind: "refused", status: 404, message: "Unknown update channel." };
  const update = await tauriUpdateFor(client, { platform, arch, currentVersion, channel });
  return update ? { kind: "feed", feed: update } : { kind: "no-update" };
}

/** A loader's response for an outcome; a refusal is thrown as React Router's error data. */
export function outcomeResponse(request: Request, outcome: FeedOutcome): Response {
  switch (outcome.kind) {
    case "feed":
      return feedResponse(request, outcome.feed);
    case "no-update":
      return new Response(null, { status: 204, headers: NO_UPDATE_HEADERS });
    case "nothing-published":
      return new Response("Nothing published for this feed yet.", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" },
      });
    case "refused":
      throw data(outcome.message, { status: outcome.status });
  }
}

/**
 * The fast path's answer for an outcome (server/fast-answers.ts): the same status, headers and
 * bytes as `outcomeResponse`; null for what the loader answers (refusals, an empty channel), which
 * decides it again without side effects (nothing is counted for them).
 */
export function outcomeFastResponse(
  request: FastRequest,
  outcome: FeedOutcome,
): FastResponse | null {
  if (outcome.kind === "no-update") return { status: 204, headers: NO_UPDATE_HEADERS };
  if (outcome.kind !== "feed") return null;
  const { feed } = outcome;
  if (request.header("if-none-match") === feed.etag) return { status: 304, headers: feed.headers };
  return { status: 200, headers: feed.bodyHeaders, body: feed };
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
  client: FeedClient,
  channel: ReleaseChannel,
  feed: FeedName,
): Promise<BuiltFeed | null> {
  const snapshot = await releaseSnapshot();
  const releases = candidatesOf(snapshot, channel);
  const clientId = client.id;
  const siteUrl = env().SITE_URL;

  if (feed === "latest.yml" || feed === "latest-mac.yml") {
    const platform = feed === "latest.yml" ? "windows" : "mac";
    // electron-updater decides a staged rollout itself from stagingPercentage, unless the client
    // sent its staging id, in which case the server decides the same way for it.
    const selection = selectRelease(releases, {
      channel,
      usable: electronUsable(platform),
      clientId: client.sentId ? clientId : null,
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
          ...sparkleNotes(entry),
        })),
      }),
      "application/xml; charset=utf-8",
    );
  });
}

/** A release's notes as the appcast carries them: HTML, and HTML per translation. */
function sparkleNotes(release: ReleaseWithAssets) {
  return {
    notesHtml: renderReleaseNotes(release.notes),
    notesHtmlByLanguage: Object.fromEntries(
      Object.entries(release.notesTranslations).map(([language, notes]) => [
        language,
        renderReleaseNotes(notes),
      ]),
    ),
  };
}

/**
 * One appcast for every channel (issue 58, point 2): the newest stable release a client's rollout
 * offers (with its history), and the newest beta newer than it, tagged
 * `<sparkle:channel>beta</sparkle:channel>`: Sparkle offers it only to apps that allow the beta
 * channel (`allowedChannels`), every other app sees the stable items. The per-channel appcasts
 * stay as they were for apps that already read them.
 */
async function buildAllChannelsAppcast(client: FeedClient): Promise<BuiltFeed | null> {
  const snapshot = await releaseSnapshot();
  const siteUrl = env().SITE_URL;
  const stable = selectRelease(candidatesOf(snapshot, "stable"), {
    channel: "stable",
    usable: sparkleUsable,
    clientId: client.id,
  });
  const anyChannel = selectRelease(candidatesOf(snapshot, "beta"), {
    channel: "beta",
    usable: sparkleUsable,
    clientId: client.id,
  });
  const beta = anyChannel && anyChannel.release.channel === "beta" ? anyChannel.release : null;
  if (!stable && !beta) return null;
  const newest = beta ?? stable?.release;
  if (newest) countCheck(newest.version, "mac", "any", newest.channel);
  const key = `appcast.xml|all|${stable?.release.id ?? ""}|${beta?.id ?? ""}`;
  return builtOnce(snapshot, key, () => {
    const history = stable
      ? olderReleases(
          candidatesOf(snapshot, "stable"),
          "stable",
          stable.release.version,
          sparkleUsable,
          4,
        )
      : [];
    const entries = [...(beta ? [beta] : []), ...(stable ? [stable.release] : []), ...history];
    return built(
      appcast({
        title: site.product.name,
        siteUrl,
        feedUrl: `${siteUrl}/updates/${ALL_CHANNELS}/appcast.xml`,
        minimumVersion: snapshot.minimums.mac ?? null,
        releases: entries.map((entry) => ({
          release: entry,
          ...sparkleNotes(entry),
          ...(entry.channel === "beta" ? { channel: "beta" } : {}),
        })),
      }),
      "application/xml; charset=utf-8",
    );
  });
}

/**
 * The version an anonymous update check counts as in use: one we published, or `other`. Anyone
 * can send any version, so counting what was sent let one client fill the operator's statistics
 * with made-up versions (issue 32, point 2: 5,000 requests made a fake one the top version and
 * the analytics page 13 times larger); this way they have as many rows as we have releases.
 */
function versionInUse(snapshot: ReleaseSnapshot, version: string): string {
  return snapshot.published.some((release) => release.version === version)
    ? version
    : OTHER_VERSION;
}

/**
 * Tauri's dynamic endpoint: the update for a client of this target, arch and version, or null
 * (204) when it has the newest release its rollout offers it.
 */
export async function tauriUpdateFor(
  client: FeedClient,
  input: { platform: Platform; arch: string; currentVersion: string; channel: ReleaseChannel },
): Promise<BuiltFeed | null> {
  const snapshot = await releaseSnapshot();
  countAppVersion(versionInUse(snapshot, input.currentVersion), input.platform);
  const selection = selectRelease(candidatesOf(snapshot, input.channel), {
    channel: input.channel,
    usable: tauriUsable(input.platform, input.arch),
    clientId: client.id,
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

/** How many releases back a Velopack feed lists: its client applies at most 10 deltas. */
const VELOPACK_HISTORY = 10;

/**
 * Velopack's feed, `/updates/velopack/releases.{channel}.json` (`?arch=&localVersion=&stagingId=`):
 * the newest release the client's rollout offers (staging decided here from its staging id, by
 * the same rule as every feed) and the ones before it, with their full and delta packages. A
 * client outside a rollout gets the release before. Nothing to offer is an empty feed, which
 * Velopack reads as "no update" (a 404 would be an error in the app).
 */
export async function velopackOutcome(
  fileName: string,
  searchParams: URLSearchParams,
  client: FeedClient,
): Promise<FeedOutcome> {
  const wanted = velopackChannelOf(fileName);
  if (!wanted)
    return {
      kind: "refused",
      status: 404,
      message: "Unknown Velopack channel: use releases.win.json, releases.osx.json, or -beta.",
    };
  const { platform, channel } = wanted;
  const arch = velopackArchOf(searchParams.get("arch"));
  const snapshot = await releaseSnapshot();
  const localVersion = searchParams.get("localVersion");
  if (localVersion !== null) countAppVersion(versionInUse(snapshot, localVersion), platform);
  const candidates = candidatesOf(snapshot, channel);
  const selection = selectRelease(candidates, {
    channel,
    usable: velopackFullUsable(platform, arch),
    clientId: client.id,
  });
  if (selection) countCheck(selection.release.version, platform, arch ?? "any", channel);
  const key = `velopack|${platform}|${channel}|${arch ?? ""}|${selection?.release.id ?? ""}`;
  const feed = builtOnce(snapshot, key, () => {
    const entries = selection
      ? [
          selection.release,
          ...olderReleases(
            candidates,
            channel,
            selection.release.version,
            velopackFullUsable(platform, arch),
            VELOPACK_HISTORY,
          ),
        ]
      : [];
    return built(
      JSON.stringify(
        velopackFeed(
          entries.map((release) => ({ release, notesHtml: renderReleaseNotes(release.notes) })),
          velopackUsable(platform, arch),
        ),
      ),
      "application/json; charset=utf-8",
    );
  });
  return { kind: "feed", feed };
}

/**
 * A Velopack package by its bare name (the feed's `FileName`, fetched from beside the feed), in
 * the published releases: its release and file, or null.
 */
export async function velopackPackage(fileName: string) {
  const snapshot = await releaseSnapshot();
  for (const release of snapshot.published) {
    const asset = release.assets.find(
      (candidate) => candidate.updater === "velopack" && candidate.fileName === fileName,
    );
    if (asset) return { release, asset };
  }
  return null;
}
