import { Link } from "react-router";
/** Mirrors the server's Banner (overview.server.ts). */
type Banner = "pending" | "halted" | null;

/** The dunning banner: a failed payment (still Pro while Razorpay retries) or a halted plan. */
export function BillingBanner({ banner }: { banner: Banner }) {
  if (!banner) return null;
  return (
    <div
      role="alert"
      data-testid="billing-banner"
      className="rounded-lg border border-red-500/50 bg-red-950/50 px-4 py-3 text-red-100"
    >
      {banner === "pending" ? (
        <p>
          <strong>Your last payment failed.</strong> You keep Pro while Razorpay retries. Update
          your payment method to avoid an interruption.{" "}
          <Link to="/fix-subscription" className="font-semibold underline">
            Fix it now
          </Link>
        </p>
      ) : (
        <p>
          <strong>Pro is stopped after failed payments</strong>, and your account is on Free.
          Authorise a working payment method to restart it.{" "}
          <Link to="/fix-subscription" className="font-semibold underline">
            Restart Pro
          </Link>
        </p>
      )}
    </div>
  );
}
