import { parse as parseYaml } from "yaml";
import { z } from "zod";

/** A problem in a content file; the message names the file (and the line when known). */
export class ContentError extends Error {
  override name = "ContentError";
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export interface SplitFile {
  data: unknown;
  body: string;
  /** 1-based line of the file on which the body starts (for error messages). */
  bodyLine: number;
}

/** Separates the YAML front matter from the Markdown body. */
export function splitFrontMatter(source: string, file: string): SplitFile {
  const text = source.replace(/^\uFEFF/, "");
  const match = FRONT_MATTER.exec(text);
  if (!match) {
    throw new ContentError(`${file}: no front matter (the file must start with a "---" block)`);
  }
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ContentError(`${file}: front matter is not valid YAML: ${reason}`);
  }
  return {
    data,
    body: text.slice(match[0].length),
    bodyLine: match[0].split("\n").length,
  };
}

/** YYYY-MM-DD that is a real calendar date (YAML gives a string; a Date is accepted too). */
const isoDate = z.union([z.string(), z.date()]).transform((value, ctx) => {
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : value.trim();
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text) {
    ctx.addIssue({ code: "custom", message: `must be a date written YYYY-MM-DD, got "${text}"` });
    return z.NEVER;
  }
  return text;
});

const text = z.string().trim().min(1, "must not be empty");

/** Tags end up in URLs (?tag=) and feeds: lower-case words joined by hyphens keep them clean. */
const tag = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "tags are lower-case letters, digits and hyphens");

export const MAX_DESCRIPTION_LENGTH = 160;

export const blogFrontMatterSchema = z.strictObject({
  title: text,
  // Search engines cut longer descriptions; the limit keeps meta tags and cards whole.
  description: text.max(
    MAX_DESCRIPTION_LENGTH,
    `must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
  ),
  date: isoDate,
  author: text,
  tags: z.array(tag).refine((tags) => new Set(tags).size === tags.length, "must not repeat a tag"),
  cover: z
    .string()
    .regex(/^(\/(?!\/)|https:\/\/)\S+$/, "must be a site path (/...) or an https:// URL")
    .optional(),
});

export const legalFrontMatterSchema = z.strictObject({
  title: text,
  description: text,
  updated: isoDate,
});

export type BlogFrontMatter = z.infer<typeof blogFrontMatterSchema>;
export type LegalFrontMatter = z.infer<typeof legalFrontMatterSchema>;

/** Parses front matter with a schema; the error lists every wrong field of the file. */
export function validateFrontMatter<Schema extends z.ZodType>(
  schema: Schema,
  data: unknown,
  file: string,
): z.infer<Schema> {
  const result = schema.safeParse(data ?? {});
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".") || "(front matter)";
    return `  ${field}: ${issue.message}`;
  });
  throw new ContentError(`${file}: invalid front matter:\n${lines.join("\n")}`);
}
