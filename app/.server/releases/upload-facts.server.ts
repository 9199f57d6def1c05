import semver from "semver";
import type { Platform } from "~/lib/platform";
import type { Database } from "../db";
import { AppError } from "../http/errors";
import type { FileRole } from "./files";
import { NupkgError, readNupkgManifest } from "./nupkg";
import type { ReleaseWithAssets } from "./queries.server";
import { releaseStorage } from "./storage/index.server";
import { archFromFileName, isArch, type Arch } from "./targets";
import { sparkleSign, sparkleSignedBySite } from "./update-key.server";
import { isVersion } from "./versions";

/** What an uploaded file is, beyond its name's role: read from its name and, for a package, its bytes. */
export interface UploadFacts {
  platform: Platform;
  arch: Arch;
  fromVersion: string | null;
  packageId: string | null;
  edSignature: string | null;
}

const ED_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

/**
 * A Sparkle delta's base version, from the name generate_appcast gives it:
 * `{App}{version}-{from version}.delta` (Pinout2.1.0-2.0.0.delta). Read after this release's
 * version, so a pre-release base (2.0.0-beta.1) is not mistaken for part of it.
 */
export function sparkleDeltaBase(fileName: string, version: string): string | null {
  const lower = fileName.toLowerCase();
  const marker = `${version.toLowerCase()}-`;
  const at = lower.lastIndexOf(marker, lower.length - ".delta".length - 1);
  if (at < 0 || !lower.endsWith(".delta")) return null;
  const base = fileName.slice(at + marker.length, -".delta".length);
  return isVersion(base) ? base : null;
}

/** Velopack's OS names and ours; Linux packages have no buyers here. */
const VELOPACK_OS: Record<string, Platform> = { win: "windows", windows: "windows", osx: "mac" };
const VELOPACK_ARCH: Record<string, Arch> = { x64: "x64", arm64: "arm64", x86: "ia32" };

async function velopackFacts(
  release: ReleaseWithAssets,
  fileName: string,
  storageKey: string,
  size: number,
): Promise<{ platform: Platform; arch: Arch | null; packageId: string }> {
  const storage = releaseStorage();
  const read = async (start: number, end: number) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(storageKey, { start, end }))
      chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const manifest = await readNupkgManifest(read, size).catch((error: unknown) => {
    if (error instanceof NupkgError)
      throw new AppError("invalid", `${fileName}: not a Velopack package (${error.message})`);
    throw error;
  });
  if (!semver.valid(manifest.version) || !semver.eq(manifest.version, release.version))
    throw new AppError(
      "invalid",
      `${fileName}: its manifest says version ${manifest.version}, this release is ${release.version}`,
    );
  const platform = Object.hasOwn(VELOPACK_OS, manifest.os) ? VELOPACK_OS[manifest.os] : undefined;
  if (!platform)
    throw new AppError(
      "invalid",
      `${fileName}: a package for "${manifest.os || "no OS"}"; this site serves Windows (win) and macOS (osx) packages`,
    );
  const other = release.assets.find(
    (asset) => asset.updater === "velopack" && asset.packageId !== manifest.id,
  );
  if (other)
    throw new AppError(
      "invalid",
      `${fileName}: package id ${manifest.id}, but ${other.fileName} is ${other.packageId ?? "another"}: one app per release`,
    );
  const arch = Object.hasOwn(VELOPACK_ARCH, manifest.machineArchitecture)
    ? (VELOPACK_ARCH[manifest.machineArchitecture] ?? null)
    : null;
  return { platform, arch, packageId: manifest.id };
}

/**
 * Checks a stored upload and says what it is: its platform and arch, a Sparkle delta's base, a
 * Velopack package's id, and the Sparkle signature of a Mac file (the one supplied, checked
 * against the site's update key, or one made with it). Throws AppError("invalid") with the reason.
 */
export async function uploadFacts(input: {
  release: ReleaseWithAssets;
  role: FileRole;
  fileName: string;
  storageKey: string;
  size: number;
  arch?: string;
  edSignature?: string;
  database: Database;
}): Promise<UploadFacts> {
  const { release, role, fileName, storageKey } = input;
  let platform = role.platform;
  let arch: string = input.arch ?? archFromFileName(fileName);
  let packageId: string | null = null;
  let fromVersion: string | null = null;

  if (role.updater === "velopack") {
    const facts = await velopackFacts(release, fileName, storageKey, input.size);
    platform = facts.platform;
    arch = input.arch ?? facts.arch ?? arch;
    packageId = facts.packageId;
  }
  if (role.updater === "sparkle") {
    fromVersion = sparkleDeltaBase(fileName, release.version);
    if (!fromVersion)
      throw new AppError(
        "invalid",
        `${fileName}: name a Sparkle delta as generate_appcast does, {App}${release.version}-{from version}.delta`,
      );
    if (!semver.lt(fromVersion, release.version))
      throw new AppError(
        "invalid",
        `${fileName}: a delta from ${fromVersion} must start from a version older than ${release.version}`,
      );
  }
  if (!isArch(arch)) throw new AppError("invalid", "arch must be universal, x64, arm64 or ia32");
  if (!platform) throw new AppError("invalid", `${fileName}: which platform it is for is unknown`);

  const sparkleFile =
    platform === "mac" &&
    (role.updater === "sparkle" ||
      fileName.toLowerCase().endsWith(".zip") ||
      role.kind === "installer");
  let edSignature: string | null = null;
  if (sparkleFile) {
    const read = () => releaseStorage().read(storageKey);
    if (input.edSignature !== undefined) {
      if (!(await sparkleSignedBySite(read, input.edSignature, input.database)))
        throw new AppError(
          "invalid",
          `${fileName}: the EdDSA signature does not verify with the site's update key (SUPublicEDKey on /admin/releases); leave it out and the site signs the file`,
        );
      edSignature = input.edSignature;
    } else edSignature = await sparkleSign(read, input.database);
  }
  return { platform, arch, fromVersion, packageId, edSignature };
}

/** The shape check of a supplied signature, before a byte of the file is read. */
export function checkSignatureShape(edSignature: string | undefined): void {
  if (edSignature !== undefined && !ED_SIGNATURE.test(edSignature))
    throw new AppError("invalid", "the EdDSA signature must be 64 bytes in base64");
}
