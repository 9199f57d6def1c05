/**
 * A same-origin path to go to after signing in, or the fallback. Absolute URLs, protocol-relative
 * ("//evil.example") and backslash tricks ("/\\evil.example") are refused: an open redirect on a
 * sign-in page is a phishing tool. So are their encoded spellings ("/%2F%2Fevil.example").
 */
export function safeNext(next: string | null | undefined, fallback = "/account"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\"))
    return fallback;
  // Control characters and whitespace could smuggle a different URL past the checks above.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  if (/[\u0000-\u001f\u007f\s]/.test(next)) return fallback;
  try {
    const url = new URL(next, "http://same.origin");
    if (url.origin !== "http://same.origin") return fallback;
    const path = url.pathname + url.search + url.hash;
    // Dot segments can normalise into "//host" ("/..//evil.example"): check the result again.
    // An encoded slash or backslash first ("/%2F%2Fevil", "/%5Cevil") is the same trick for
    // whoever decodes the path once more (Better Auth checks a decoded callbackURL's origin and
    // refuses the sign-in with 403): refused here, before anyone decodes it.
    return /^\/(?:[/\\]|%2f|%5c)/i.test(path) ? fallback : path;
  } catch {
    return fallback;
  }
}
