import type { MetaDescriptor } from "react-router";
import { site } from "~/config/site";

/** Title and description tags for one page; canonical and social image come from the root layout. */
export function pageMeta(
  title: string,
  description: string,
  ogType: "website" | "article" = "website",
): MetaDescriptor[] {
  const fullTitle = title.startsWith(site.product.name) ? title : `${title} | ${site.product.name}`;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: ogType },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
  ];
}
