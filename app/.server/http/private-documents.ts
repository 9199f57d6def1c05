import { createHash } from "node:crypto";
import { istDay } from "~/lib/india-time";

/**
 * Signed-in documents already rendered, reused while what they were rendered from is unchanged
 * (decision 0035).
 *
 * A document is a pure function of its URL, status and route data: hydration demands it, since the
 * browser renders the same tree again from the same URL and data and React refuses a different
 * result. So once a signed-in page has been rendered, the same URL answered with byte-identical
 * route data renders to the same bytes, and the render (about half of a signed-in request's CPU)
 * can be skipped. Nothing about access is skipped: the guard has read the session and every loader
 * has run against the database before this is asked, and the key is the whole of their output.
 * The signed-in user's id is part of the key too, so a document rendered for one account never
 * goes to another, even when both accounts' route data are the same bytes (the bytes hold the
 * first viewer's nonce; issue 32, point 14).
 *
 * The one input a render reads besides those is the clock (the footer's year): the India day is
 * part of the key. Entries live at most ten minutes and the whole store is bounded in bytes.
 */

/** What a reused document is answered with: its bytes and the CSP hashes of its inline scripts. */
export interface StoredDocument {
  body: Uint8Array<ArrayBuffer>;
  scriptHashes: string[];
}

/** The inputs of one render: everything it reads that can differ between two requests. */
export interface RenderInputs {
  url: string;
  /** Whom it is rendered for: the signed-in user's id (null for nobody). */
  viewer: string | null;
  status: number;
  loaderData: unknown;
  actionData: unknown;
  errors: unknown;
}

const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRY_BYTES = 512 * 1024;
const MAX_AGE_MS = 10 * 60_000;

/**
 * The route data written as text that differs whenever the data differs, types included (a Date
 * and its ISO string are not the same input), or null when it holds something that is not plain
 * data (a promise streamed later, a function, a class instance): such a render is never reused.
 */
export function dataText(value: unknown): string | null {
  const parts: string[] = [];
  const seen = new Set<object>();
  const walk = (item: unknown): boolean => {
    switch (typeof item) {
      case "undefined":
        parts.push("u");
        return true;
      case "boolean":
        parts.push(item ? "t" : "f");
        return true;
      case "number":
        parts.push(Object.is(item, -0) ? "n-0" : `n${item}`);
        return true;
      case "bigint":
        parts.push(`b${item}`);
        return true;
      case "string":
        parts.push(JSON.stringify(item));
        return true;
      case "object": {
        if (item === null) {
          parts.push("z");
          return true;
        }
        if (item instanceof Date) {
          parts.push(`d${item.getTime()}`);
          return true;
        }
        // A repeated reference is written out again; a cycle is not data.
        if (seen.has(item)) return false;
        seen.add(item);
        let ok = true;
        if (Array.isArray(item)) {
          parts.push("[");
          for (const element of item) if (!(ok = walk(element))) break;
          parts.push("]");
        } else {
          const prototype: unknown = Object.getPrototypeOf(item);
          if (prototype !== Object.prototype && prototype !== null) return false;
          parts.push("{");
          for (const [key, field] of Object.entries(item)) {
            parts.push(JSON.stringify(key), ":");
            if (!(ok = walk(field))) break;
          }
          parts.push("}");
        }
        seen.delete(item);
        return ok;
      }
      default:
        return false;
    }
  };
  return walk(value) ? parts.join(",") : null;
}

/** The key of a render, or null when it must not be reused (an error, a non-200, streamed data). */
export function renderKey(inputs: RenderInputs, now: Date = new Date()): string | null {
  if (inputs.status !== 200 || inputs.errors) return null;
  const data = dataText([inputs.loaderData, inputs.actionData]);
  if (data === null) return null;
  return createHash("sha256")
    .update(`${istDay(now)}\n${inputs.viewer ?? ""}\n${inputs.url}\n${data}`)
    .digest("base64url");
}

interface Entry extends StoredDocument {
  bytes: number;
  storedAt: number;
}

/** A store bounded in bytes, least recently used first out. */
export class PrivateDocuments {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(
    private readonly maxBytes = MAX_BYTES,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {}

  get(key: string, now = Date.now()): StoredDocument | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (now - entry.storedAt > this.maxAgeMs) {
      this.#bytes -= entry.bytes;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry;
  }

  set(key: string, document: StoredDocument, now = Date.now()): void {
    const bytes = document.body.length;
    if (bytes > Math.min(MAX_ENTRY_BYTES, this.maxBytes)) return;
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#bytes -= previous.bytes;
    }
    this.#entries.set(key, { ...document, bytes, storedAt: now });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}

/** This process's store. */
export const privateDocuments = new PrivateDocuments();
