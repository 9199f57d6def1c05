/** The pricing page's structured data: the product with its plans' offers, and its questions. */
import { JsonLd } from "~/components/JsonLd";
import { pricingFaq } from "~/config/pricing";
import { site } from "~/config/site";
import { rupeesDecimal } from "~/lib/money";
import { planLabel } from "~/lib/plans";

export function PricingJsonLd({ siteUrl }: { siteUrl: string }) {
  return <JsonLd data={structuredData(siteUrl)} />;
}

function structuredData(siteUrl: string) {
  return [
    {
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: site.product.name,
      description: site.product.description,
      applicationCategory: "DeveloperApplication",
      operatingSystem: "macOS, Windows",
      url: `${siteUrl}/pricing`,
      offers: site.plans.map((plan) => ({
        "@type": "Offer",
        name: planLabel(plan),
        price: rupeesDecimal(plan.pricePaise),
        priceCurrency: site.pricing.currency,
        ...(plan.billingCycle
          ? {
              priceSpecification: {
                "@type": "UnitPriceSpecification",
                price: rupeesDecimal(plan.pricePaise),
                priceCurrency: site.pricing.currency,
                valueAddedTaxIncluded: site.pricing.pricesIncludeGst,
                billingDuration: plan.billingCycle === "yearly" ? "P1Y" : "P1M",
              },
            }
          : {}),
      })),
    },
    {
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: pricingFaq.map((faq) => ({
        "@type": "Question",
        name: faq.question,
        acceptedAnswer: { "@type": "Answer", text: faq.answer },
      })),
    },
  ];
}
