import type { ReferrerRow } from "~/.server/analytics/referrals.server";
import { AdminSection, AdminTable, TD, TD_NUM, TR } from "~/components/admin/AdminUi";
import { formatInr } from "~/lib/money";

/** Referred sign-ups in the period, by referrer: how many paid, their revenue, rewards given. */
export function ReferralSection({
  referrals,
  rewardDays,
}: {
  referrals: ReferrerRow[];
  rewardDays: number;
}) {
  return (
    <AdminSection
      id="referrals"
      title="Referrals"
      lead={`People who signed up through a customer's link in the period, by whose link. "Paid": their first payment was captured. "Revenue": everything they have paid, less refunds. "Rewards": ${rewardDays} days of Pro given to the referrer once a first payment was past the refund window.${rewardDays === 0 ? " Referral links are off (REFERRAL_REWARD_DAYS=0)." : ""}`}
    >
      {referrals.length === 0 ? (
        <p className="text-sm text-slate-300">
          Nobody signed up through a referral link in this period.
        </p>
      ) : (
        <AdminTable
          caption="Referrals by referrer"
          columns={[
            "Referrer",
            { label: "Signed up", alignRight: true },
            { label: "Paid", alignRight: true },
            { label: "Revenue", alignRight: true },
            { label: "Rewards", alignRight: true },
          ]}
        >
          {referrals.map((row) => (
            <tr key={row.referrerId ?? "deleted"} className={TR}>
              <th scope="row" className={`${TD} break-all font-normal`}>
                {row.referrer}
              </th>
              <td className={TD_NUM}>{row.signedUp}</td>
              <td className={TD_NUM}>{row.paid}</td>
              <td className={TD_NUM}>{formatInr(row.revenuePaise)}</td>
              <td className={TD_NUM}>{row.rewards}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </AdminSection>
  );
}
