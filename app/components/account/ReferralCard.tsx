import { useState } from "react";
import type { ReferralOverview } from "~/.server/referrals/overview.server";
import { formatDate } from "~/lib/dates";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * The customer's referral link and what it has earned (issue 36, point 9). The link is plain text
 * in a read-only field, so it can be selected and copied without scripts; the button copies it in
 * one tap once the page's script runs (it is there from the start, so nothing moves).
 */
export function ReferralCard({ referral }: { referral: ReferralOverview }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(referral.link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section
      aria-labelledby="referral-heading"
      className="mt-4 rounded-xl border border-slate-800 bg-slate-900 p-5"
      data-testid="referral-card"
    >
      <h2 id="referral-heading" className="text-lg font-semibold text-white">
        Invite friends
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        {referral.friendGets
          ? `Friends who sign up through your link get ${referral.friendGets}. `
          : ""}
        {`You get ${referral.rewardDays} days of Pro for each friend whose first payment is past the ${REFUND_WINDOW_DAYS}-day refund window.`}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <label className="block min-w-0 flex-1">
          <span className="block text-sm text-slate-300">Your link</span>
          <input
            readOnly
            value={referral.link}
            data-testid="referral-link"
            onFocus={(event) => event.currentTarget.select()}
            className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-sm text-slate-100"
          />
        </label>
        <button
          type="button"
          className="btn-secondary"
          disabled={!hydrated}
          onClick={() => void copy()}
        >
          {copied ? "Copied" : "Copy link"}
        </button>
      </div>
      <p className="mt-3 text-sm text-slate-300" data-testid="referral-stats" aria-live="polite">
        {`Signed up through your link: ${referral.signedUp}. Paid: ${referral.paid}${referral.waiting > 0 ? ` (${referral.waiting} waiting for the refund window)` : ""}.`}
      </p>
      {referral.rewards.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm text-slate-200" data-testid="referral-rewards">
          {referral.rewards.map((reward) => (
            <li key={reward.at}>
              {`${reward.days} days of Pro, given ${formatDate(reward.at)}${reward.until ? `: Pro until ${formatDate(reward.until)}` : ""}.`}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
