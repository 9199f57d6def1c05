import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb } from "../db";
import { type ReleaseAsset, RELEASE_CHANNELS, releaseAssets, releases } from "../db/schema";
import { roleOfFile, sanitizeFileName } from "./files";
import { findReleaseById, releasesChanged, type ReleaseWithAssets } from "./queries.server";
import { HashingCounter } from "./storage/hashing";
import { releaseStorage, uploadLimitBytes } from "./storage/index.server";
import { isArch } from "./targets";
import { checkSignatureShape, uploadFacts } from "./upload-facts.server";
import { versionSchema } from "./versions";
import { AppError } from "../http/errors";

const noNul = (value: string) => !value.includes("\0");

const notesSchema = z.string().max(20_000).refine(noNul, { error: "contains a NUL character" });

/** A language tag as `xml:lang` takes it: hi, ta, pt-BR, zh-Hans. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/;

export const draftSchema = z.object({
  version: versionSchema,
  channel: z.enum(RELEASE_CHANNELS).default("stable"),
  notes: notesSchema.default(""),
  notesTranslations: z
    .record(z.string(), notesSchema.trim().min(1))
    .superRefine((notes, context) => {
      const tags = Object.keys(notes);
      if (tags.length > 20) context.addIssue({ code: "custom", message: "at most 20 languages" });
      for (const tag of tags.filter((candidate) => !LANGUAGE_TAG.test(candidate)))
        context.addIssue({
          code: "custom",
          path: [tag],
          message: "must be a language tag such as hi or pt-BR",
        });
    })
    .default({}),
  critical: z.boolean().default(false),
  informational: z.boolean().default(false),
  minimumAutoupdateVersion: versionSchema.optional().or(z.literal("").transform(() => undefined)),
  minimumSystemVersion: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+){0,2}$/, { error: "must look like 12.0 or 10.15.7" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export type DraftInput = z.input<typeof draftSchema>;

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}`;
}

/** A new release, as a draft: invisible to every feed and page until published. */
export async function createDraftRelease(
  input: DraftInput,
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets> {
  const parsed = draftSchema.safeParse(input);
  if (!parsed.success) throw new AppError("invalid", firstIssue(parsed.error));
  const { version, minimumAutoupdateVersion, minimumSystemVersion } = parsed.data;
  const [created] = await database
    .insert(releases)
    .values({
      ...parsed.data,
      minimumAutoupdateVersion: minimumAutoupdateVersion ?? null,
      minimumSystemVersion: minimumSystemVersion ?? null,
      status: "draft",
    })
    .onConflictDoNothing({ target: releases.version })
    .returning();
  if (!created) throw new AppError("conflict", `version ${version} already exists`);
  return { ...created, assets: [] };
}

async function draftOrThrow(id: string, database: Database): Promise<ReleaseWithAssets> {
  const release = await findReleaseById(id, database);
  if (!release) throw new AppError("not_found", "no such release");
  if (release.status !== "draft")
    throw new AppError(
      "conflict",
      `version ${release.version} is published: its files never change (publish a new version)`,
    );
  return release;
}

const MAX_SIGNATURE_BYTES = 4096;

async function readSmall(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new AppError("too_large", "a signature file is at most 4 KB");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8").trim();
}

export interface FileUpload {
  fileName: string;
  /** Overrides the arch read from the file name. */
  arch?: string;
  /** Sparkle signature made at build time (base64); the site signs mac files without one. */
  edSignature?: string;
}

/**
 * Adds one file to a draft, streamed into storage with its hashes. A `.sig` file (Tauri's
 * minisign signature) is not stored: its text becomes the signature of the file it names. The row
 * is written only after the bytes are stored, so an interrupted upload leaves no file behind.
 */
export async function addReleaseFile(
  releaseId: string,
  upload: FileUpload,
  body: Readable,
  database: Database = defaultDb(),
): Promise<ReleaseAsset> {
  const release = await draftOrThrow(releaseId, database);
  const fileName = sanitizeFileName(upload.fileName);
  if (!fileName) throw new AppError("invalid", "the file name is empty or too long");

  if (fileName.toLowerCase().endsWith(".sig")) {
    const signed = fileName.slice(0, -".sig".length);
    const target = release.assets.find((asset) => asset.fileName === signed);
    if (!target)
      throw new AppError("conflict", `upload ${signed} before its signature ${fileName}`);
    const signature = await readSmall(body, MAX_SIGNATURE_BYTES);
    if (!signature || signature.includes("\0"))
      throw new AppError("invalid", "the signature file is empty");
    const [updated] = await database
      .update(releaseAssets)
      .set({ signature })
      .where(eq(releaseAssets.id, target.id))
      .returning();
    if (!updated) throw new AppError("not_found", "no such file");
    return updated;
  }

  const role = roleOfFile(fileName);
  if (!role)
    throw new AppError(
      "invalid",
      `${fileName}: not a release file (.dmg, .zip, .app.tar.gz, .exe, .exe.blockmap, .msi, a Sparkle .delta, a Velopack -full.nupkg or -delta.nupkg, or a .sig)`,
    );
  if (upload.arch !== undefined && !isArch(upload.arch))
    throw new AppError("invalid", "arch must be universal, x64, arm64 or ia32");
  checkSignatureShape(upload.edSignature);

  const storageKey = `${release.version}/${fileName}`;
  const stored = await releaseStorage().put(storageKey, body, {
    maxBytes: uploadLimitBytes(),
    contentType: role.contentType,
  });
  // What the bytes say (a package's manifest, a signature): a file that fails is not kept, nor
  // the draft's file of that name it overwrote.
  const facts = await uploadFacts({
    release,
    role,
    fileName,
    storageKey,
    size: stored.size,
    arch: upload.arch,
    edSignature: upload.edSignature,
    database,
  }).catch(async (error: unknown) => {
    await database
      .delete(releaseAssets)
      .where(and(eq(releaseAssets.releaseId, release.id), eq(releaseAssets.fileName, fileName)));
    await releaseStorage().remove(storageKey);
    throw error;
  });

  const values = {
    releaseId: release.id,
    platform: facts.platform,
    arch: facts.arch,
    kind: role.kind,
    updater: role.updater,
    fromVersion: facts.fromVersion,
    packageId: facts.packageId,
    fileName,
    sizeBytes: stored.size,
    sha256: stored.sha256,
    sha512: stored.sha512,
    sha1: stored.sha1,
    edSignature: facts.edSignature,
    storageKey,
  };
  try {
    return await database.transaction(async (tx) => {
      // Uploading the same name again to a draft replaces the file.
      await tx
        .delete(releaseAssets)
        .where(and(eq(releaseAssets.releaseId, release.id), eq(releaseAssets.fileName, fileName)));
      const [asset] = await tx.insert(releaseAssets).values(values).returning();
      if (!asset) throw new AppError("invalid", "the file was not recorded");
      return asset;
    });
  } catch (error) {
    if (/release_assets_release_slot_key|unique|duplicate/i.test(String((error as Error).message)))
      throw new AppError(
        "conflict",
        `this release already has a ${facts.platform} ${facts.arch} ${role.kind} file${facts.fromVersion ? ` from ${facts.fromVersion}` : ""}${role.updater ? ` for ${role.updater}` : ""}: remove it first`,
      );
    throw error;
  }
}

export async function removeReleaseFile(
  releaseId: string,
  fileName: string,
  database: Database = defaultDb(),
): Promise<void> {
  const release = await draftOrThrow(releaseId, database);
  const asset = release.assets.find((candidate) => candidate.fileName === fileName);
  if (!asset) throw new AppError("not_found", "no such file");
  await database.delete(releaseAssets).where(eq(releaseAssets.id, asset.id));
  if (asset.storageKey) await releaseStorage().remove(asset.storageKey);
}

/** Makes a draft visible: to the download page and to the feeds its rollout reaches. */
export async function publishDraft(
  releaseId: string,
  options: { rolloutPercent?: number } = {},
  database: Database = defaultDb(),
): Promise<void> {
  const release = await draftOrThrow(releaseId, database);
  if (!release.assets.some((asset) => asset.kind === "installer"))
    throw new AppError("invalid", "upload at least one installer (.dmg or .exe) before publishing");
  const rollout = options.rolloutPercent ?? 100;
  if (!Number.isInteger(rollout) || rollout < 0 || rollout > 100)
    throw new AppError("invalid", "rollout must be a whole percentage from 0 to 100");
  await database
    .update(releases)
    .set({ status: "published", publishedAt: new Date(), rolloutPercent: rollout })
    .where(and(eq(releases.id, release.id), eq(releases.status, "draft")));
  await releasesChanged(database);
}

export const rolloutSchema = z.object({
  percent: z.coerce.number().int().min(0).max(100),
});

/** Rollout, pause and pull: how an operator steers a published release. */
export async function updateRelease(
  releaseId: string,
  change:
    | { rolloutPercent: number }
    | { paused: boolean }
    | { status: "pulled" | "published" }
    | { critical: boolean },
  database: Database = defaultDb(),
): Promise<void> {
  const release = await findReleaseById(releaseId, database);
  if (!release) throw new AppError("not_found", "no such release");
  if (release.status === "draft") throw new AppError("conflict", "publish the draft first");
  if ("rolloutPercent" in change) {
    const percent = change.rolloutPercent;
    if (!Number.isInteger(percent) || percent < 0 || percent > 100)
      throw new AppError("invalid", "rollout must be a whole percentage from 0 to 100");
  }
  await database.update(releases).set(change).where(eq(releases.id, release.id));
  await releasesChanged(database);
}

/** Deletes a draft and its stored files (published releases are pulled, never deleted). */
export async function deleteDraft(releaseId: string, database: Database = defaultDb()) {
  const release = await draftOrThrow(releaseId, database);
  await database.delete(releases).where(eq(releases.id, release.id));
  await Promise.all(
    release.assets.map((asset) =>
      asset.storageKey ? releaseStorage().remove(asset.storageKey) : Promise.resolve(),
    ),
  );
}

export interface PublishInput extends DraftInput {
  files: { filePath: string; arch?: string }[];
  rolloutPercent?: number;
}

/**
 * Publishes a release from files on this machine in one go (the CLI on a stopped embedded site,
 * and the demo release): draft, files (signatures after what they sign), publish. A failure
 * deletes the draft, so nothing half-published remains.
 */
export async function publishRelease(
  input: PublishInput,
  database: Database = defaultDb(),
): Promise<ReleaseWithAssets> {
  if (input.files.length === 0)
    throw new AppError("invalid", "give at least one installer (--mac or --windows)");
  const draft = await createDraftRelease(input, database);
  try {
    const ordered = [...input.files].sort(
      (a, b) => Number(a.filePath.endsWith(".sig")) - Number(b.filePath.endsWith(".sig")),
    );
    for (const file of ordered) {
      const stat = await fs.stat(file.filePath).catch(() => null);
      if (!stat?.isFile()) throw new AppError("invalid", `no such file: ${file.filePath}`);
      await addReleaseFile(
        draft.id,
        { fileName: path.basename(file.filePath), arch: file.arch },
        createReadStream(file.filePath),
        database,
      );
    }
    await publishDraft(draft.id, { rolloutPercent: input.rolloutPercent }, database);
  } catch (error) {
    await deleteDraft(draft.id, database).catch(() => {});
    throw error;
  }
  const published = await findReleaseById(draft.id, database);
  if (!published) throw new AppError("invalid", "release was not recorded");
  return published;
}

/** Fills in the SHA-512 of files stored before it was recorded (once, at start-up). */
export async function backfillFileHashes(database: Database = defaultDb()): Promise<number> {
  const missing = await database.select().from(releaseAssets).where(isNull(releaseAssets.sha512));
  let filled = 0;
  for (const asset of missing) {
    if (!asset.storageKey) continue;
    const source = await releaseStorage()
      .read(asset.storageKey)
      .catch(() => null);
    if (!source) continue;
    const counter = new HashingCounter(Number.MAX_SAFE_INTEGER);
    const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
    await pipeline(source, counter, discard);
    await database
      .update(releaseAssets)
      .set({ sha512: counter.result().sha512 })
      .where(eq(releaseAssets.id, asset.id));
    filled += 1;
  }
  return filled;
}
