/** The legal pages, in the order the footer and /legal list them. */
export const LEGAL_PAGES = [
  {
    slug: "terms",
    title: "Terms of Service",
    description: "The terms on which the app and this site are offered.",
  },
  {
    slug: "privacy",
    title: "Privacy Policy",
    description: "What personal data is collected, why, and your rights over it.",
  },
  {
    slug: "refund",
    title: "Refund and Cancellation Policy",
    description: "How to cancel a subscription and when refunds are given.",
  },
  {
    slug: "shipping",
    title: "Shipping and Delivery Policy",
    description: "How the software and your licence are delivered.",
  },
  {
    slug: "cookies",
    title: "Cookie Policy",
    description: "Which cookies this site sets and how to change your choice.",
  },
  {
    slug: "contact",
    title: "Contact Us",
    description: "How to reach the company, support and the grievance officer.",
  },
] as const;

export type LegalSlug = (typeof LEGAL_PAGES)[number]["slug"];
