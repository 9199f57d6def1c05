/**
 * "Return to the app" (issue 57, point 4): on the page where an errand the desktop app opened ends,
 * a link to the address the app waits on (its loopback listener or its own scheme), with what was
 * done in the query. A plain link: it works before and without scripts.
 */
import { site } from "~/config/site";

export function ReturnToApp({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <a href={href} className="btn-primary" data-testid="return-to-app">
      {`Return to the ${site.product.name} app`}
    </a>
  );
}
