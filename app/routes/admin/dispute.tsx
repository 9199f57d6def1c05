import { data, Link } from "react-router";
import { requireAdmin } from "~/.server/auth/session";
import { disputeEvidence } from "~/.server/disputes/evidence.server";
import { AdminPage, AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { PageHeader } from "~/components/PageHeader";
import { customerPageById } from "~/lib/admin-paths";
import { formatDateTime } from "~/lib/dates";
import { disputeStatusWords, isUndecided } from "~/lib/disputes";
import { countOf } from "~/lib/format";
import { pageMeta } from "~/lib/meta";
import { formatProviderMoney } from "~/lib/money";
import type { Route } from "./+types/dispute";

export const meta: Route.MetaFunction = ({ data: page }) =>
  pageMeta(page ? `Dispute ${page.dispute.id}` : "Dispute", "A chargeback and its evidence.");

const iso = (date: Date) => date.toISOString();

/**
 * /admin/disputes/:id (issue 59, point 4): a dispute with its deadline, and the evidence the site
 * holds to answer it at Razorpay: the invoice, the customer's sign-ins and devices, their use of
 * the app and the mails they were sent.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  requireAdmin(context);
  const found = await disputeEvidence(params.id);
  if (!found) throw data("Not found", { status: 404 });
  const { dispute } = found;
  return {
    dispute: {
      id: dispute.providerDisputeId,
      paymentId: dispute.providerPaymentId,
      amount: formatProviderMoney(dispute.amountMinor, dispute.currency),
      deducted: formatProviderMoney(dispute.amountDeductedMinor, dispute.currency),
      amountDeducted: dispute.amountDeductedMinor,
      status: dispute.status,
      phase: dispute.phase,
      reason: dispute.reason ?? dispute.reasonCode,
      respondBy: dispute.respondBy ? iso(dispute.respondBy) : null,
      openedAt: iso(dispute.openedAt),
    },
    customer: found.customer && { ...found.customer, since: iso(found.customer.since) },
    payment: found.payment && {
      amount: formatProviderMoney(found.payment.amountMinor, found.payment.currency),
      method: found.payment.method,
      paidAt: found.payment.paidAt ? iso(found.payment.paidAt) : null,
    },
    invoice: found.invoice && {
      number: found.invoice.number,
      issuedAt: iso(found.invoice.issuedAt),
    },
    creditNote: found.creditNote && {
      number: found.creditNote.number,
      issuedAt: iso(found.creditNote.issuedAt),
    },
    signIns: found.signIns.map((row) => ({ ...row, at: iso(row.at) })),
    devices: found.devices.map((row) => ({
      ...row,
      createdAt: iso(row.createdAt),
      lastSeenAt: iso(row.lastSeenAt),
      revokedAt: row.revokedAt ? iso(row.revokedAt) : null,
    })),
    usage: found.usage.map((row) => ({
      ...row,
      firstAt: iso(row.firstAt),
      lastAt: iso(row.lastAt),
    })),
    mails: found.mails.map((row) => ({ ...row, at: iso(row.at) })),
  };
}

function Empty({ children }: { children: string }) {
  return <p className="text-sm text-slate-300">{children}</p>;
}

export default function AdminDisputePage({ loaderData }: Route.ComponentProps) {
  const { dispute, customer, payment, invoice, creditNote, signIns, devices, usage, mails } =
    loaderData;
  const documents = `/admin/disputes/${encodeURIComponent(dispute.id)}`;
  return (
    <AdminPage>
      <p className="text-sm">
        <Link className="link" to="/admin/disputes">
          ← All disputes
        </Link>
      </p>
      <PageHeader
        title={`Dispute of ${dispute.amount}`}
        lead={`${disputeStatusWords(dispute.status)}${
          dispute.respondBy && isUndecided(dispute.status)
            ? ` · evidence due ${formatDateTime(dispute.respondBy)}`
            : ""
        }`}
      />
      <AdminSection id="dispute" title="The dispute">
        <dl className="grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="text-slate-400">Dispute</dt>
          <dd className="font-mono text-xs">{dispute.id}</dd>
          <dt className="text-slate-400">Payment</dt>
          <dd>
            <span className="font-mono text-xs">{dispute.paymentId}</span>
            {payment
              ? ` · ${payment.amount} by ${payment.method ?? "an unknown method"}${payment.paidAt ? ` on ${formatDateTime(payment.paidAt)}` : ""}`
              : " · not recorded here"}
          </dd>
          <dt className="text-slate-400">Customer</dt>
          <dd>
            {customer ? (
              <Link className="link break-all" to={customerPageById(customer.id)}>
                {`${customer.name} <${customer.email}>, customer since ${formatDateTime(customer.since)}`}
              </Link>
            ) : (
              "Not one of our customers' payments, or the account was deleted"
            )}
          </dd>
          <dt className="text-slate-400">Reason</dt>
          <dd>{`${dispute.reason ?? "—"}${dispute.phase ? ` (${dispute.phase})` : ""}`}</dd>
          <dt className="text-slate-400">Opened</dt>
          <dd>{formatDateTime(dispute.openedAt)}</dd>
          {dispute.amountDeducted > 0 ? (
            <>
              <dt className="text-slate-400">Deducted</dt>
              <dd>{dispute.deducted}</dd>
            </>
          ) : null}
          <dt className="text-slate-400">Tax documents</dt>
          <dd className="space-x-3">
            {invoice ? (
              <a className="link" href={`${documents}/invoice.pdf`} download>
                {`Invoice ${invoice.number} (PDF)`}
              </a>
            ) : (
              <span>No invoice for this payment</span>
            )}
            {creditNote ? (
              <a className="link" href={`${documents}/credit-note.pdf`} download>
                {`Credit note ${creditNote.number} (PDF)`}
              </a>
            ) : null}
          </dd>
        </dl>
      </AdminSection>

      <AdminSection
        id="sign-ins"
        title={`Sign-ins (${signIns.length})`}
        lead="The newest sessions on record, with the address and browser they came from."
      >
        {signIns.length === 0 ? (
          <Empty>No sign-in on record.</Empty>
        ) : (
          <AdminTable caption="Sign-ins, newest first" columns={["When", "Address", "Browser"]}>
            {signIns.map((row) => (
              <tr key={row.at + (row.userAgent ?? "")} className={TR}>
                <td className={TD}>{formatDateTime(row.at)}</td>
                <td className={`${TD} font-mono text-xs`}>{row.ipAddress ?? "—"}</td>
                <td className={`${TD} text-xs break-all`}>{row.userAgent ?? "—"}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>

      <AdminSection id="devices" title={`Desktop devices (${devices.length})`}>
        {devices.length === 0 ? (
          <Empty>The app was never signed in.</Empty>
        ) : (
          <AdminTable
            caption="Devices, last seen first"
            columns={["Device", "Signed in", "Last check-in", "Signed out"]}
          >
            {devices.map((row) => (
              <tr key={row.createdAt + row.name} className={TR}>
                <td className={TD}>{`${row.name} (${row.platform})`}</td>
                <td className={TD}>{formatDateTime(row.createdAt)}</td>
                <td className={TD}>{formatDateTime(row.lastSeenAt)}</td>
                <td className={TD}>{row.revokedAt ? formatDateTime(row.revokedAt) : "—"}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>

      <AdminSection id="usage" title="Use of the app" lead="In the 90 days before the dispute.">
        {usage.length === 0 ? (
          <Empty>No use of the app reported in those 90 days.</Empty>
        ) : (
          <AdminTable caption="Features used" columns={["Feature", "Uses", "First", "Last"]}>
            {usage.map((row) => (
              <tr key={row.feature} className={TR}>
                <td className={TD}>{row.feature}</td>
                <td className={TD_NUM}>{row.uses.toLocaleString("en-IN")}</td>
                <td className={TD}>{formatDateTime(row.firstAt)}</td>
                <td className={TD}>{formatDateTime(row.lastAt)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>

      <AdminSection id="mails" title={`Mails sent (${countOf(mails.length, "mail")})`}>
        {mails.length === 0 ? (
          <Empty>No mail on record.</Empty>
        ) : (
          <AdminTable caption="Mails, newest first" columns={["When", "Subject", "Delivery"]}>
            {mails.map((row) => (
              <tr key={row.at + row.subject} className={TR}>
                <td className={TD}>{formatDateTime(row.at)}</td>
                <td className={TD}>{row.subject}</td>
                <td className={TD}>{row.status}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
