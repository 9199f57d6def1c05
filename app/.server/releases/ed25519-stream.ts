/**
 * Pure Ed25519 (RFC 8032, section 5.1.6) over a message too large to hold in memory. Ed25519 has
 * no pre-hash (Sparkle's sign_update and verifier use the pure scheme), but the message only ever
 * enters it through two SHA-512 hashes: r = H(prefix || M) and k = H(R || A || M). Reading the
 * message twice, as a stream each time, gives the same signature as signing it whole (the scheme
 * is deterministic), with memory flat for any size (issue 32, point 7: 400 MB took the server
 * from 676 to 1,282 MB). The curve arithmetic is @noble/curves' (docs/decisions/0038).
 */
import { createHash } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";

/** A fresh stream of the message each time it is called. */
export type MessageReader = () => Promise<AsyncIterable<Uint8Array>>;

const ORDER = ed25519.Point.Fn.ORDER;

function littleEndianNumber(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let index = bytes.length - 1; index >= 0; index -= 1)
    value = (value << 8n) | BigInt(bytes[index] ?? 0);
  return value;
}

function littleEndianBytes(value: bigint, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let rest = value;
  for (let index = 0; index < length; index += 1) {
    bytes[index] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return bytes;
}

/** SHA-512 of `head` followed by the message, as a number mod the group order. */
async function hashToScalar(head: Uint8Array[], read: MessageReader): Promise<bigint> {
  const hash = createHash("sha512");
  for (const part of head) hash.update(part);
  for await (const chunk of await read()) hash.update(chunk);
  return littleEndianNumber(hash.digest()) % ORDER;
}

/** The 64-byte signature of the message under the 32-byte secret key (the seed). */
export async function signStreamed(seed: Uint8Array, read: MessageReader): Promise<Uint8Array> {
  const { prefix, scalar, pointBytes } = ed25519.utils.getExtendedPublicKey(seed);
  const r = await hashToScalar([prefix], read);
  // r = 0 has a chance of about 2^-252; the identity is its point, as the RFC's arithmetic gives.
  const R = (r === 0n ? ed25519.Point.ZERO : ed25519.Point.BASE.multiply(r)).toBytes();
  const k = await hashToScalar([R, pointBytes], read);
  const S = (r + k * scalar) % ORDER;
  const signature = new Uint8Array(64);
  signature.set(R, 0);
  signature.set(littleEndianBytes(S, 32), 32);
  return signature;
}

/**
 * Whether `signature` is a valid signature of the message under the 32-byte public key, reading
 * the message once as a stream (k = H(R || A || M); then [S]B = R + [k]A, RFC 8032 section
 * 5.1.7, without the cofactor, as Sparkle's verifier checks it).
 */
export async function verifyStreamed(
  publicKey: Uint8Array,
  signature: Uint8Array,
  read: MessageReader,
): Promise<boolean> {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const S = littleEndianNumber(signature.subarray(32));
  if (S >= ORDER) return false;
  let R, A;
  try {
    R = ed25519.Point.fromBytes(signature.subarray(0, 32));
    A = ed25519.Point.fromBytes(publicKey);
  } catch {
    return false;
  }
  const k = await hashToScalar([signature.subarray(0, 32), publicKey], read);
  const left = S === 0n ? ed25519.Point.ZERO : ed25519.Point.BASE.multiply(S);
  const kA = k === 0n ? ed25519.Point.ZERO : A.multiply(k);
  return left.equals(R.add(kA));
}
