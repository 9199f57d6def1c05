import { site } from "~/config/site";

/** Site-wide JSON-LD: the company and the website with its search action. */
export function siteStructuredData(siteUrl: string) {
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        "@id": `${siteUrl}/#organization`,
        name: site.company.legalName,
        alternateName: site.company.brandName,
        url: `${siteUrl}/`,
        logo: `${siteUrl}${site.product.logoPath}`,
        email: site.company.supportEmail,
        address: {
          "@type": "PostalAddress",
          streetAddress: `${site.company.address.line1}, ${site.company.address.line2}`,
          addressLocality: site.company.address.city,
          addressRegion: site.company.address.state,
          postalCode: site.company.address.postalCode,
          addressCountry: "IN",
        },
        sameAs: site.social.map((link) => link.url),
      },
      {
        "@type": "WebSite",
        "@id": `${siteUrl}/#website`,
        name: site.product.name,
        url: `${siteUrl}/`,
        inLanguage: site.language,
        publisher: { "@id": `${siteUrl}/#organization` },
        potentialAction: {
          "@type": "SearchAction",
          target: {
            "@type": "EntryPoint",
            urlTemplate: `${siteUrl}/search?q={search_term_string}`,
          },
          "query-input": "required name=search_term_string",
        },
      },
    ],
  };
}

/** JSON for a <script type="application/ld+json">: "<" escaped so no string can close the tag. */
export function jsonLdString(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
