/**
 * The legal pages, in the order the footer and /legal list them. Their text is Markdown in
 * content/legal/<slug>.md; slug, title and description here must match its front matter
 * (checked by app/.server/content/legal.server.test.ts). This list stays separate so the footer,
 * which ships to the browser, does not pull in the compiled pages.
 */
export const LEGAL_PAGES = [
  {
    slug: "terms",
    title: "Terms of Service",
    description:
      "The agreement between you and us for using the desktop app, your account and paid subscriptions.",
  },
  {
    slug: "privacy",
    title: "Privacy Policy",
    description:
      "What personal data we collect, why we collect it, how long we keep it, and how you can exercise your rights under Indian law.",
  },
  {
    slug: "refund",
    title: "Refund and Cancellation Policy",
    description:
      "How to cancel your subscription, when you can get a refund, how failed payments are handled, and how refunds reach you.",
  },
  {
    slug: "shipping",
    title: "Shipping and Delivery Policy",
    description:
      "We ship nothing physical: the app is downloaded and your subscription is delivered electronically as soon as payment is confirmed.",
  },
  {
    slug: "cookies",
    title: "Cookie Policy",
    description:
      "Which cookies our website uses, why, how long they last, and how to change or withdraw your analytics consent at any time.",
  },
  {
    slug: "contact",
    title: "Contact Us",
    description:
      "How to reach us for support, billing, privacy requests and grievances, with our registered address and GSTIN.",
  },
] as const;

export type LegalSlug = (typeof LEGAL_PAGES)[number]["slug"];
