import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { type StoredObject, UploadTooLargeError } from "./types";

/**
 * A pass-through that hashes (SHA-256, SHA-512 and SHA-1) and counts the bytes going by, and fails the
 * stream with UploadTooLargeError as soon as they exceed the limit.
 */
export class HashingCounter extends Transform {
  private readonly sha256 = createHash("sha256");
  private readonly sha512 = createHash("sha512");
  private readonly sha1 = createHash("sha1");
  private bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(new UploadTooLargeError(this.maxBytes));
      return;
    }
    this.sha256.update(chunk);
    this.sha512.update(chunk);
    this.sha1.update(chunk);
    callback(null, chunk);
  }

  result(): StoredObject {
    return {
      size: this.bytes,
      sha256: this.sha256.digest("hex"),
      sha512: this.sha512.digest("base64"),
      sha1: this.sha1.digest("hex"),
    };
  }
}
