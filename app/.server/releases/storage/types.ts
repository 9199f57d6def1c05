import type { Readable } from "node:stream";

export interface StoredObject {
  size: number;
  /** Hex SHA-256 (shown on the download page). */
  sha256: string;
  /** Base64 SHA-512 (electron-updater). */
  sha512: string;
  /** Hex SHA-1 (Velopack's feed lists it; never used for integrity on its own). */
  sha1: string;
}

export class UploadTooLargeError extends Error {
  override name = "UploadTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the upload limit of ${Math.floor(maxBytes / 1024 / 1024)} MB.`);
  }
}

/**
 * Where release files live. `put` streams (never buffers a whole file), hashes while streaming,
 * stops past `maxBytes`, and makes the object visible only once complete, so an interrupted upload
 * leaves nothing behind under its key.
 */
export interface ReleaseStorage {
  readonly kind: "local" | "s3";
  put(
    key: string,
    body: Readable,
    options: { maxBytes: number; contentType: string },
  ): Promise<StoredObject>;
  /** The bytes of a stored object (a byte range when given, both ends inclusive). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** The size of a stored object, or null when it does not exist. */
  size(key: string): Promise<number | null>;
  /**
   * A short-lived URL the client downloads from directly (S3 presigned), or null when the app
   * streams the file itself.
   */
  downloadUrl(key: string, fileName: string, contentType: string): Promise<string | null>;
  remove(key: string): Promise<void>;
}
