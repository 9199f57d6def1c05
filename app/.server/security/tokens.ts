import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, URL-safe: every token the site issues. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored only as this hash: a database leak gives no usable token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Compares a secret with what a client sent in constant time: their SHA-256 digests, always 32
 * bytes, so neither where they differ nor the secret's length leaks (a length check before
 * timingSafeEqual answers early for every wrong length, issue 53).
 */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash("sha256").update(a, "utf8").digest();
  const right = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(left, right);
}

/** RFC 7636: code_verifier is 43-128 characters of [A-Z a-z 0-9 - . _ ~]. */
export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of the verifier: 43 characters. */
export const PKCE_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** Compares in constant time, so the check reveals nothing about the expected challenge. */
export function verifyPkce(verifier: string, challenge: string): boolean {
  return PKCE_VERIFIER.test(verifier) && safeEqual(s256(verifier), challenge);
}
