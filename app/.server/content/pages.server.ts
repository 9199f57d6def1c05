import { site } from "~/config/site";

/** A public page that is not Markdown content: listed in the sitemap and found by search. */
export interface SitePage {
  path: string;
  title: string;
  description: string;
  /** Extra words search should match (the page itself is React, not indexed text). */
  keywords: string;
}

const planWords = [...new Set(site.plans.flatMap((plan) => [plan.name, ...plan.features]))];

/**
 * The public pages outside the blog and the legal section. Their text is written in their route
 * modules; search knows them by title, description and a few keywords.
 */
export const SITE_PAGES: readonly SitePage[] = [
  {
    path: "/",
    title: `${site.product.name}: ${site.product.tagline}`,
    description: site.product.description,
    keywords: "home",
  },
  {
    path: "/landing",
    title: "Build firmware faster",
    description: "A focused look at what the app does for embedded developers.",
    keywords: "features",
  },
  {
    path: "/pricing",
    title: "Pricing",
    description: `Plans and prices in Indian rupees: ${site.product.name} is free on one device, Pro is paid monthly or yearly, GST included.`,
    keywords: `plans price prices subscription GST ${planWords.join(" ")}`,
  },
  {
    path: "/download",
    title: "Download",
    description: `Download ${site.product.name} for Mac (.dmg) or Windows (.exe).`,
    keywords: "install installer macOS Windows dmg exe",
  },
  {
    path: "/about",
    title: "About us",
    description: `${site.company.legalName} makes ${site.product.name}, a desktop workbench for embedded developers, in ${site.company.address.city}.`,
    keywords: "company team contact address GSTIN who we are",
  },
  {
    path: "/feedback",
    title: "Feedback",
    description: "Tell us what works, what does not, and what you need next.",
    keywords: "feature request bug report",
  },
];
