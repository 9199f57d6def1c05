/**
 * Opening Razorpay's checkout for a subscription the server started, and where that stands:
 * opening, open, dismissed, failed, or confirming (the handler's signed answer is being posted
 * back as `intent=verify`). Used by every page that has a subscription authorised.
 */
import { useEffect, useRef, useState } from "react";
import { useSubmit } from "react-router";
import { site } from "~/config/site";
import {
  loadCheckout,
  type RazorpayHandlerResponse,
  WITHOUT_UPI_COLLECT,
} from "~/lib/razorpay-checkout";

export type CheckoutPhase = "form" | "opening" | "open" | "dismissed" | "failed" | "confirming";

export interface OpenSubscription {
  subscriptionId: string;
  keyId: string;
  description: string;
}

export function useRazorpayCheckout<Open extends OpenSubscription>(options: {
  scriptUrl: string;
  prefill: { name: string; email: string };
  notes: Record<string, string>;
  /** What the action answered with: a new value opens checkout once. */
  open: Open | null;
  answer: unknown;
  /** Just before the window opens (the funnel's begin_checkout). */
  onOpened?: (details: Open) => void;
}) {
  const submit = useSubmit();
  const [phase, setPhase] = useState<CheckoutPhase>("form");
  const [problem, setProblem] = useState<string | null>(null);
  const opened = useRef<unknown>(null);

  const pay = async (details: Open) => {
    setPhase("opening");
    setProblem(null);
    try {
      const Razorpay = await loadCheckout(options.scriptUrl);
      const instance = new Razorpay({
        key: details.keyId,
        subscription_id: details.subscriptionId,
        name: site.product.name,
        description: details.description,
        prefill: options.prefill,
        notes: options.notes,
        theme: { color: "#22c55e" },
        config: WITHOUT_UPI_COLLECT,
        handler: (response: RazorpayHandlerResponse) => {
          setPhase("confirming");
          void submit({ intent: "verify", ...response }, { method: "post" });
        },
        // Closed by the buyer: "closed before paying", not a failure shown before it.
        modal: {
          ondismiss: () => {
            setProblem(null);
            setPhase("dismissed");
          },
        },
      });
      instance.on("payment.failed", (response) => {
        setProblem(response.error.description ?? null);
        setPhase("failed");
      });
      options.onOpened?.(details);
      instance.open();
      setPhase("open");
    } catch (error) {
      setPhase("dismissed");
      setProblem(
        error instanceof Error ? error.message : "The payment window could not be opened.",
      );
    }
  };

  useEffect(() => {
    // Each successful "start" opens checkout once; a retry uses the same subscription.
    if (options.open && opened.current !== options.answer) {
      opened.current = options.answer;
      void pay(options.open);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options.open]);

  return { phase, problem, pay };
}
