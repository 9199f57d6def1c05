/**
 * PostgreSQL text cannot hold a NUL character: a NUL typed into any field would reach the
 * database and fail there, as a 500 after part of the work was done (a handoff token spent, a
 * mail queued). Bodies are checked once, on the way in, and refused with the field named.
 */

function pathOf(path: readonly (string | number)[]): string {
  return path.length === 0 ? "body" : path.join(".");
}

/** The path of the first string (or key) in a JSON value that holds a NUL, or null. */
function nulInJson(value: unknown, path: (string | number)[] = []): string | null {
  if (typeof value === "string") return value.includes("\0") ? pathOf(path) : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulInJson(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\0")) return pathOf([...path, key.replaceAll("\0", "\\0")]);
      const found = nulInJson(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The name of the first field whose value contains a NUL, for JSON, urlencoded and multipart
 * bodies (text fields only: files may hold any bytes); null when there is none or the body is not
 * one of those (the route's own parser reports malformed bodies).
 */
export async function nulField(
  body: Buffer,
  contentType: string | undefined,
): Promise<string | null> {
  const type = (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
  if (type === "application/json" || type.endsWith("+json")) {
    if (!body.includes(0) && !body.includes("\\u0000")) return null;
    try {
      return nulInJson(JSON.parse(body.toString("utf8")));
    } catch {
      return null;
    }
  }
  if (type === "application/x-www-form-urlencoded") {
    if (!body.includes("%00") && !body.includes(0)) return null;
    for (const [key, value] of new URLSearchParams(body.toString("utf8")))
      if (key.includes("\0") || value.includes("\0")) return key.replaceAll("\0", "\\0");
    return null;
  }
  if (type === "multipart/form-data") {
    if (!body.includes(0)) return null;
    try {
      const form = await new Response(new Uint8Array(body), {
        headers: { "content-type": contentType ?? "" },
      }).formData();
      for (const [key, value] of form)
        if (typeof value === "string" && (key.includes("\0") || value.includes("\0")))
          return key.replaceAll("\0", "\\0");
    } catch {
      return null;
    }
  }
  return null;
}

export function nulMessage(field: string): string {
  return `The field "${field}" contains a NUL character, which is not allowed. Remove it and try again.`;
}
