import { site } from "~/config/site";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { PrefetchLink } from "~/lib/prefetch";

export function Footer() {
  const { company, product, social } = site;
  return (
    <footer className="border-t border-slate-800 bg-slate-950">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-3 sm:px-6 md:grid-cols-5">
        <div className="sm:col-span-3 md:col-span-2">
          <p className="text-base font-semibold text-white">{product.name}</p>
          <p className="mt-2 max-w-sm text-sm text-slate-400">{product.tagline}</p>
          <address className="mt-4 text-sm not-italic text-slate-400">
            {company.legalName}
            <br />
            {company.address.line1}, {company.address.line2}
            <br />
            {company.address.city}, {company.address.state} {company.address.postalCode}
            <br />
            GSTIN {company.gstin}
          </address>
          <p className="mt-4 text-sm text-slate-400">
            Grievance Officer: {company.grievanceOfficer.name},{" "}
            {company.grievanceOfficer.designation},{" "}
            <a className="link" href={`mailto:${company.grievanceOfficer.email}`}>
              {company.grievanceOfficer.email}
            </a>
          </p>
        </div>
        <nav aria-label="Product">
          <h2 className="text-sm font-semibold text-white">Product</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <PrefetchLink className="text-slate-400 hover:text-white" to="/pricing">
                Pricing
              </PrefetchLink>
            </li>
            <li>
              <PrefetchLink className="text-slate-400 hover:text-white" to="/download">
                Download
              </PrefetchLink>
            </li>
            <li>
              <PrefetchLink className="text-slate-400 hover:text-white" to="/about">
                About us
              </PrefetchLink>
            </li>
            <li>
              <PrefetchLink className="text-slate-400 hover:text-white" to="/blog">
                Blog
              </PrefetchLink>
            </li>
            <li>
              <PrefetchLink className="text-slate-400 hover:text-white" to="/feedback">
                Feedback
              </PrefetchLink>
            </li>
            <li>
              <a
                className="text-slate-400 hover:text-white"
                href={`mailto:${company.supportEmail}`}
              >
                {company.supportEmail}
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label="Your account">
          <h2 className="text-sm font-semibold text-white">Your account</h2>
          {/* Plain links in every page as served: the navbar shows "Log in" only once its session
              check has run (the spec's rule), so without JavaScript this is the way in. */}
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a className="text-slate-400 hover:text-white" href="/auth">
                Log in
              </a>
            </li>
            <li>
              <a className="text-slate-400 hover:text-white" href="/auth?view=signup">
                Create an account
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <h2 className="text-sm font-semibold text-white">Legal</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {LEGAL_PAGES.map((page) => (
              <li key={page.slug}>
                <PrefetchLink
                  className="text-slate-400 hover:text-white"
                  to={`/legal/${page.slug}`}
                >
                  {page.title}
                </PrefetchLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-4 text-xs text-slate-400 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>
            © {new Date().getFullYear()} {company.legalName}
          </p>
          <ul className="flex gap-4">
            {social.map((link) => (
              <li key={link.url}>
                <a className="hover:text-white" href={link.url} rel="noopener noreferrer">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
