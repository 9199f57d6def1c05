import { Link } from "react-router";
import { PageHeader } from "~/components/PageHeader";
import { site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/about";
import { publicPageHeaders } from "~/lib/cache-control";

const LEAD = `${site.company.legalName} makes ${site.product.name}, a desktop workbench for embedded developers.`;

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () => pageMeta("About us", LEAD);

/** Who is behind the product: payment providers' website reviews ask for this page. */
export default function AboutPage() {
  const { company, product } = site;
  const { address } = company;
  return (
    <div className="prose-page">
      <PageHeader title="About us" lead={LEAD} />
      <section aria-labelledby="what" className="space-y-3">
        <h2 id="what" className="text-xl font-semibold text-white">
          What we make
        </h2>
        <p className="text-slate-300">{product.description}</p>
        <p className="text-slate-300">
          {`${product.name} is free on one device; Pro adds the logic views, firmware flashing and three devices, paid monthly or yearly in rupees with a GST invoice for every payment.`}{" "}
          <Link to="/pricing" className="link">
            See pricing
          </Link>
        </p>
      </section>
      <section aria-labelledby="company" className="mt-8 space-y-2">
        <h2 id="company" className="text-xl font-semibold text-white">
          The company
        </h2>
        <p className="text-slate-300">{`${company.legalName}, a private limited company registered in India.`}</p>
        <address className="not-italic text-slate-300">
          {address.line1}
          <br />
          {address.line2}
          <br />
          {`${address.city}, ${address.state} ${address.postalCode}, ${address.country}`}
        </address>
        <p className="text-slate-300">{`GSTIN ${company.gstin}`}</p>
      </section>
      <section aria-labelledby="contact" className="mt-8 space-y-2">
        <h2 id="contact" className="text-xl font-semibold text-white">
          Contact
        </h2>
        <p className="text-slate-300">
          Email{" "}
          <a className="link" href={`mailto:${company.supportEmail}`}>
            {company.supportEmail}
          </a>{" "}
          or call {company.phone}. Grievances:{" "}
          <a className="link" href={`mailto:${company.grievanceOfficer.email}`}>
            {company.grievanceOfficer.name}
          </a>
          . More on the{" "}
          <Link to="/legal/contact" className="link">
            contact page
          </Link>
          .
        </p>
      </section>
    </div>
  );
}
