import { jsonLdString } from "~/lib/structured-data";

/** Structured data for search engines; escaped so no string can end the script element. */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdString(data) }} />
  );
}
