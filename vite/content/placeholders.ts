import type { SiteConfig } from "../../app/config/site";
import { ContentError } from "./front-matter.ts";

/**
 * Placeholders filled at request time. SITE_URL is an environment variable of the running server,
 * so one build can serve any domain: the marker stays in the compiled HTML until then.
 */
export const RUNTIME_PLACEHOLDERS = ["site.url"] as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders filled at build time, from app/config/site.ts. */
export function placeholderValues(config: SiteConfig): Record<string, string> {
  const { company } = config;
  const address = company.address;
  return {
    "product.name": config.product.name,
    "company.legalName": company.legalName,
    "company.address": [
      address.line1,
      address.line2,
      address.city,
      `${address.state} ${address.postalCode}`,
      address.country,
    ].join(", "),
    "company.city": address.city,
    "company.state": address.state,
    "company.gstin": company.gstin,
    "company.supportEmail": company.supportEmail,
    "company.phone": company.phone,
    "grievance.name": company.grievanceOfficer.name,
    "grievance.email": company.grievanceOfficer.email,
    "grievance.designation": company.grievanceOfficer.designation,
    "grievance.phone": company.grievanceOfficer.phone,
  };
}

/**
 * A configuration value made inert inside Markdown: characters that would start emphasis, code,
 * links or HTML are backslash-escaped (CommonMark renders them literally). "@" and "." are left
 * alone so e-mail addresses still become links.
 */
export function escapeMarkdownText(value: string): string {
  return value.replace(/[\\`*_[\]<>|~&]/g, "\\$&").replace(/^[#+=-]/, "\\$&");
}

export interface SubstituteOptions {
  /** Escape values for Markdown (the body) or leave them as they are (front matter text). */
  markdown: boolean;
  /** Line of the file on which `text` starts, for error messages. */
  firstLine?: number;
}

/**
 * Fills `{{name}}` placeholders. Runtime placeholders are kept (normalised to `{{name}}`);
 * an unknown name is a mistake in the content and stops the build.
 */
export function substitutePlaceholders(
  text: string,
  values: Record<string, string>,
  file: string,
  options: SubstituteOptions,
): string {
  const runtime: readonly string[] = RUNTIME_PLACEHOLDERS;
  return text.replace(PLACEHOLDER, (_match, name: string, offset: number) => {
    if (runtime.includes(name)) return `{{${name}}}`;
    const value = values[name];
    if (value === undefined) {
      const line = (options.firstLine ?? 1) + text.slice(0, offset).split("\n").length - 1;
      const known = [...Object.keys(values), ...runtime].sort().join(", ");
      throw new ContentError(
        `${file}:${line}: unknown placeholder {{${name}}} (known placeholders: ${known})`,
      );
    }
    return options.markdown ? escapeMarkdownText(value) : value;
  });
}
