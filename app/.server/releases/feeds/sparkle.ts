import { XMLBuilder } from "fast-xml-parser";
import type { ReleaseAsset } from "../../db/schema";
import { releaseFileUrl } from "./file-url";
import type { ReleaseWithAssets } from "./select";

export const SPARKLE_NS = "http://www.andymatuschak.org/xml-namespaces/sparkle";

/** Sparkle installs a signed .zip or .dmg; the update .zip first, as it is what Sparkle prefers. */
export function sparkleUsable(asset: ReleaseAsset): boolean {
  if (asset.platform !== "mac" || !asset.storageKey || !asset.edSignature) return false;
  return asset.fileName.toLowerCase().endsWith(".zip") || asset.kind === "installer";
}

/** A Sparkle delta the appcast can list: stored, signed, with its base version. */
export function sparkleDelta(asset: ReleaseAsset): boolean {
  return (
    asset.updater === "sparkle" &&
    asset.kind === "delta" &&
    asset.storageKey !== null &&
    asset.edSignature !== null &&
    asset.fromVersion !== null
  );
}

export function sparkleFileFor(release: ReleaseWithAssets): ReleaseAsset | null {
  const usable = release.assets.filter(sparkleUsable);
  return usable.find((asset) => asset.kind === "update") ?? usable[0] ?? null;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressEmptyNode: true,
});

/**
 * The notes: one `<description>` without a language (what Sparkle shows when none matches the
 * Mac's), then one per translation with its `xml:lang`.
 */
function descriptions(notesHtml: string, byLanguage: Record<string, string>) {
  const translated = Object.entries(byLanguage).map(([language, html]) => ({
    "@_xml:lang": language,
    "#text": html,
  }));
  const all = [...(notesHtml ? [{ "#text": notesHtml }] : []), ...translated];
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}

export interface AppcastInput {
  title: string;
  siteUrl: string;
  feedUrl: string;
  /** `channel`: the Sparkle channel an item is only for (`beta`); none for everyone's items. */
  releases: {
    release: ReleaseWithAssets;
    notesHtml: string;
    /** The notes in other languages, as HTML, by language tag. */
    notesHtmlByLanguage?: Record<string, string>;
    channel?: string;
  }[];
  /** Updating from a version below this is critical (the platform's minimum supported version). */
  minimumVersion: string | null;
}

/** RSS 2.0 with the Sparkle namespace, newest item first. */
export function appcast(input: AppcastInput): string {
  const items = input.releases.flatMap(({ release, notesHtml, notesHtmlByLanguage, channel }) => {
    const file = sparkleFileFor(release);
    if (!file) return [];
    const item: Record<string, unknown> = {
      title: `Version ${release.version}`,
      link: `${input.siteUrl}/download`,
      pubDate: release.publishedAt.toUTCString(),
      "sparkle:version": release.version,
      "sparkle:shortVersionString": release.version,
      ...(channel ? { "sparkle:channel": channel } : {}),
      description: descriptions(notesHtml, notesHtmlByLanguage ?? {}),
    };
    if (release.minimumSystemVersion)
      item["sparkle:minimumSystemVersion"] = release.minimumSystemVersion;
    if (release.minimumAutoupdateVersion)
      item["sparkle:minimumAutoupdateVersion"] = release.minimumAutoupdateVersion;
    // Shown, not installed: Sparkle links to the download page instead.
    if (release.informational) item["sparkle:informationalUpdate"] = "";
    if (release.critical) item["sparkle:criticalUpdate"] = "";
    else if (input.minimumVersion)
      item["sparkle:criticalUpdate"] = { "@_sparkle:version": input.minimumVersion };
    // Deltas from older versions (Sparkle applies the one from the version it runs, else the
    // full update), each signed as the full update is.
    const deltas = release.assets.filter(sparkleDelta).map((delta) => ({
      "@_url": releaseFileUrl(release.version, delta.fileName, input.siteUrl),
      "@_sparkle:version": release.version,
      "@_sparkle:shortVersionString": release.version,
      "@_sparkle:deltaFrom": delta.fromVersion,
      "@_length": String(delta.sizeBytes),
      "@_type": "application/octet-stream",
      "@_sparkle:edSignature": delta.edSignature,
    }));
    if (deltas.length > 0) item["sparkle:deltas"] = { enclosure: deltas };
    item.enclosure = {
      "@_url": releaseFileUrl(release.version, file.fileName, input.siteUrl),
      "@_length": String(file.sizeBytes),
      "@_type": "application/octet-stream",
      "@_sparkle:edSignature": file.edSignature,
    };
    return [item];
  });
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "utf-8" },
    rss: {
      "@_version": "2.0",
      "@_xmlns:sparkle": SPARKLE_NS,
      channel: {
        title: input.title,
        link: input.feedUrl,
        description: `Updates of ${input.title}`,
        language: "en",
        item: items,
      },
    },
  }) as string;
}
