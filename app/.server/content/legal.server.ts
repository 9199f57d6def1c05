import { type LegalPage, legalPages } from "virtual:content";
import { env } from "~/.server/env";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { escapeHtml } from "./text.server";

const SITE_URL_PLACEHOLDER = "{{site.url}}";

export interface LegalPageSummary {
  slug: string;
  title: string;
  description: string;
  updated: string;
}

export function legalUrl(slug: string): string {
  return `/legal/${slug}`;
}

/** The legal pages in the order of app/lib/legal-pages.ts (the footer's order). */
function ordered(source: readonly LegalPage[]): LegalPage[] {
  const position = (slug: string) => {
    const index = LEGAL_PAGES.findIndex((page) => page.slug === slug);
    return index === -1 ? LEGAL_PAGES.length : index;
  };
  return [...source].sort((a, b) => position(a.slug) - position(b.slug));
}

/**
 * Fills the placeholders that depend on where this server runs. The rest were filled at build
 * time (vite/content/placeholders.ts); SITE_URL is an environment variable, so one build serves
 * any domain.
 */
export function fillRuntimePlaceholders(
  text: string,
  siteUrl: string,
  as: "html" | "text",
): string {
  return text.replaceAll(SITE_URL_PLACEHOLDER, as === "html" ? escapeHtml(siteUrl) : siteUrl);
}

export function listLegalPages(
  siteUrl: string = env().SITE_URL,
  source: readonly LegalPage[] = legalPages,
): LegalPageSummary[] {
  return ordered(source).map((page) => ({
    slug: page.slug,
    title: fillRuntimePlaceholders(page.title, siteUrl, "text"),
    description: fillRuntimePlaceholders(page.description, siteUrl, "text"),
    updated: page.updated,
  }));
}

/** A legal page ready to render, or undefined when there is none with this slug. */
export function getLegalPage(
  slug: string,
  siteUrl: string = env().SITE_URL,
  source: readonly LegalPage[] = legalPages,
): LegalPage | undefined {
  const page = source.find((candidate) => candidate.slug === slug);
  if (!page) return undefined;
  return {
    ...page,
    title: fillRuntimePlaceholders(page.title, siteUrl, "text"),
    description: fillRuntimePlaceholders(page.description, siteUrl, "text"),
    html: fillRuntimePlaceholders(page.html, siteUrl, "html"),
    plainText: fillRuntimePlaceholders(page.plainText, siteUrl, "text"),
    toc: page.toc.map((entry) => ({
      ...entry,
      text: fillRuntimePlaceholders(entry.text, siteUrl, "text"),
    })),
  };
}

/** Every legal page with its placeholders filled, in footer order. */
export function allLegalPages(
  siteUrl: string = env().SITE_URL,
  source: readonly LegalPage[] = legalPages,
): LegalPage[] {
  return ordered(source).flatMap((page) => getLegalPage(page.slug, siteUrl, source) ?? []);
}
