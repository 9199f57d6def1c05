import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb } from "../db";
import { type Release, type ReleaseAsset, releaseAssets, releases } from "../db/schema";
import { env } from "../env";
import { PLATFORMS, type Platform } from "~/lib/platform";

export class ReleaseError extends Error {
  override name = "ReleaseError";
}

/** Semantic versions, optionally with a pre-release tag: 1.4.0, 2.0.0-beta.3. */
export const versionSchema = z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, {
  error: "version must look like 1.4.0 or 2.0.0-beta.1",
});

const publishSchema = z.object({
  version: versionSchema,
  channel: z.enum(["stable", "beta"]).default("stable"),
  notes: z.string().max(20_000).default(""),
  files: z
    .array(
      z.object({
        platform: z.enum(["mac", "windows"]),
        filePath: z.string().min(1),
        arch: z.string().default("universal"),
      }),
    )
    .min(1, { error: "give at least one installer (--mac or --windows)" }),
});

export type PublishInput = z.input<typeof publishSchema>;
export type ReleaseWithAssets = Release & { assets: ReleaseAsset[] };

export function releasesDir(): string {
  return path.join(env().DATA_DIR, "releases");
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A stored asset's file, refusing any key that would leave the releases folder. */
export function assetPath(asset: Pick<ReleaseAsset, "storageKey">): string {
  if (!asset.storageKey) throw new ReleaseError("asset has no stored file");
  const root = releasesDir();
  const file = path.resolve(root, asset.storageKey);
  if (!file.startsWith(root + path.sep))
    throw new ReleaseError("asset path leaves the releases folder");
  return file;
}

/**
 * Hashes the installers, copies them under DATA_DIR/releases/<version>/ and records the release
 * with its assets in one transaction. A version is published once: a duplicate is refused and
 * nothing is copied or written.
 */
export async function publishRelease(
  input: PublishInput,
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets> {
  const parsed = publishSchema.safeParse(input);
  if (!parsed.success)
    throw new ReleaseError(parsed.error.issues.map((issue) => issue.message).join("; "));
  const { version, channel, notes, files } = parsed.data;

  const existing = await database
    .select({ id: releases.id })
    .from(releases)
    .where(eq(releases.version, version));
  if (existing.length > 0) throw new ReleaseError(`version ${version} is already published`);

  const seen = new Set<string>();
  const prepared: {
    platform: Platform;
    arch: string;
    filePath: string;
    fileName: string;
    size: number;
    sha256: string;
  }[] = [];
  for (const file of files) {
    const key = `${file.platform}/${file.arch}`;
    if (seen.has(key)) throw new ReleaseError(`two installers for ${key}`);
    seen.add(key);
    const expected = PLATFORMS[file.platform as Platform].extension;
    if (path.extname(file.filePath).toLowerCase() !== `.${expected}`) {
      throw new ReleaseError(
        `the ${file.platform} installer must be a .${expected} file: ${file.filePath}`,
      );
    }
    const stat = await fs.stat(file.filePath).catch(() => null);
    if (!stat?.isFile()) throw new ReleaseError(`no such file: ${file.filePath}`);
    const fileName = path.basename(file.filePath).replace(/[^\w.+-]/g, "_");
    prepared.push({
      ...file,
      platform: file.platform as Platform,
      fileName,
      size: stat.size,
      sha256: await sha256Of(file.filePath),
    });
  }

  const targetDir = path.join(releasesDir(), version);
  await fs.mkdir(targetDir, { recursive: true });
  const copied: string[] = [];
  try {
    for (const file of prepared) {
      const target = path.join(targetDir, file.fileName);
      await fs.copyFile(file.filePath, `${target}.partial`);
      await fs.rename(`${target}.partial`, target);
      copied.push(target);
    }
    return await database.transaction(async (tx) => {
      const [release] = await tx.insert(releases).values({ version, channel, notes }).returning();
      if (!release) throw new ReleaseError("release was not recorded");
      const assets = await tx
        .insert(releaseAssets)
        .values(
          prepared.map((file) => ({
            releaseId: release.id,
            platform: file.platform,
            arch: file.arch,
            fileName: file.fileName,
            sizeBytes: file.size,
            sha256: file.sha256,
            storageKey: `${version}/${file.fileName}`,
          })),
        )
        .returning();
      return { ...release, assets };
    });
  } catch (error) {
    // Nothing half-published: remove the copies of a release that was not recorded.
    await Promise.all(copied.map((file) => fs.rm(file, { force: true })));
    await fs.rmdir(targetDir).catch(() => {});
    if (error instanceof ReleaseError) throw error;
    if (/unique|duplicate/i.test(String((error as Error).message))) {
      throw new ReleaseError(`version ${version} is already published`);
    }
    throw error;
  }
}

async function withAssets(
  database: Database,
  release: Release | undefined,
): Promise<ReleaseWithAssets | null> {
  if (!release) return null;
  const assets = await database
    .select()
    .from(releaseAssets)
    .where(eq(releaseAssets.releaseId, release.id));
  return { ...release, assets };
}

/** The newest release of a channel (stable by default), with its installers. */
export async function latestRelease(
  channel: "stable" | "beta" = "stable",
  database: Database = defaultDb(),
) {
  const [release] = await database
    .select()
    .from(releases)
    .where(eq(releases.channel, channel))
    .orderBy(desc(releases.publishedAt))
    .limit(1);
  return withAssets(database, release);
}

export async function findRelease(version: string, database: Database = defaultDb()) {
  const [release] = await database
    .select()
    .from(releases)
    .where(eq(releases.version, version))
    .limit(1);
  return withAssets(database, release);
}

export async function hasAnyRelease(database: Database = defaultDb()): Promise<boolean> {
  const rows = await database.select({ id: releases.id }).from(releases).limit(1);
  return rows.length > 0;
}

/** The installer for a platform of a version (default: the latest stable). */
export async function findAsset(
  platform: Platform,
  version?: string,
  database: Database = defaultDb(),
) {
  const release = version
    ? await findRelease(version, database)
    : await latestRelease("stable", database);
  const asset = release?.assets.find((candidate) => candidate.platform === platform);
  return release && asset ? { release, asset } : null;
}

export async function countDownload(
  assetId: string,
  database: Database = defaultDb(),
): Promise<void> {
  await database
    .update(releaseAssets)
    .set({ downloadCount: sql`${releaseAssets.downloadCount} + 1` })
    .where(and(eq(releaseAssets.id, assetId)));
}

let cache: { at: number; value: ReleaseWithAssets | null } | undefined;
const CACHE_MS = 30_000;

/**
 * The latest stable release, remembered for 30 s: the download page is public and busy, and a new
 * release may come from another process (the publish CLI, another instance).
 */
export async function latestStableCached(): Promise<ReleaseWithAssets | null> {
  const now = Date.now();
  if (!cache || now - cache.at > CACHE_MS)
    cache = { at: now, value: await latestRelease("stable") };
  return cache.value;
}
