import { useNonce } from "~/lib/nonce";
import { jsonLdString } from "~/lib/structured-data";

/** Structured data for search engines; escaped so no string can end the script element. */
export function JsonLd({ data }: { data: unknown }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      dangerouslySetInnerHTML={{ __html: jsonLdString(data) }}
    />
  );
}
