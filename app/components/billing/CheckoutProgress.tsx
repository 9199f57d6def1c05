import { FormMessage } from "~/components/forms";
import type { CheckoutPhase, OpenSubscription } from "./useRazorpayCheckout";

/**
 * Where a Razorpay checkout stands, in words (closed, failed, confirming) with the server's
 * refusal, and "Try again" with the same subscription after a closed or failed window.
 */
export function CheckoutProgress<Open extends OpenSubscription>({
  phase,
  problem,
  confirming,
  refusal,
  open,
  onRetry,
}: {
  phase: CheckoutPhase;
  problem: string | null;
  /** The verify step is being posted (the handler answered, or a retried post). */
  confirming: boolean;
  refusal: string | null;
  open: Open | null;
  onRetry: (open: Open) => void;
}) {
  return (
    <>
      <div aria-live="polite" className="mb-4 space-y-2">
        {phase === "dismissed" ? (
          <FormMessage
            tone="error"
            message={problem ?? "Checkout was closed before paying. Nothing was charged."}
          />
        ) : null}
        {phase === "failed" ? (
          <FormMessage
            tone="error"
            message={`The payment failed. Nothing was charged.${problem ? ` (${problem})` : ""} Try again, or use another method.`}
          />
        ) : null}
        {phase === "confirming" || confirming ? (
          <FormMessage tone="success" message="Payment received, confirming…" />
        ) : null}
        {refusal ? <FormMessage tone="error" message={refusal} /> : null}
      </div>
      {open && (phase === "dismissed" || phase === "failed") ? (
        <button type="button" className="btn-primary mb-8" onClick={() => onRetry(open)}>
          Try again
        </button>
      ) : null}
    </>
  );
}
