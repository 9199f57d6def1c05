/** What the pricing page compares and answers; plans and prices themselves live in site.ts. */
import { type Currency, currencyName } from "~/lib/money";
import { seatTiersText } from "~/lib/seats";

/**
 * The ways to pay a subscription, as checkout offers them (Razorpay's subscription checkout: a
 * card, or a UPI AutoPay mandate; no net banking or wallets for recurring charges here). The
 * pricing FAQ and checkout both say this sentence, so they cannot disagree (issue 34, point 8).
 */
export const PAYMENT_METHODS_TEXT =
  "Pay with UPI AutoPay (scan the QR code with your UPI app, or open the app on your phone) or a debit or credit card, through Razorpay: the mandate you approve renews the plan. We never see or store your card number or UPI PIN.";

/** The same sentence for a buyer outside India (issue 56): a card, no UPI (rupees only). */
export const PAYMENT_METHODS_ABROAD_TEXT =
  "Pay with an international debit or credit card, through Razorpay: the card you authorise renews the plan. UPI is for payments in rupees. We never see or store your card number.";

export interface ComparisonRow {
  feature: string;
  free: string | boolean;
  pro: string | boolean;
}

export const comparison: readonly ComparisonRow[] = [
  { feature: "Board pin maps (400+ boards)", free: true, pro: true },
  { feature: "Serial monitor with timestamps and logging", free: true, pro: true },
  { feature: "Logic-analyser views (I²C, SPI, UART decoding)", free: false, pro: true },
  { feature: "Firmware flashing (ESP32, STM32, RP2040, AVR)", free: false, pro: true },
  { feature: "Saved workspaces", free: "3", pro: "Unlimited" },
  { feature: "Devices signed in at once", free: "1", pro: "3" },
  { feature: "Works offline (7-day licence grace)", free: true, pro: true },
  { feature: "Email support", free: "Community", pro: "Within 1 working day" },
  { feature: "GST tax invoice", free: false, pro: true },
];

/** The comparison as a buyer in `currency` reads it: abroad, the invoice is an export invoice. */
export function comparisonFor(currency: Currency): readonly ComparisonRow[] {
  if (currency === "INR") return comparison;
  return comparison.map((row) =>
    row.feature === "GST tax invoice" ? { ...row, feature: "Export invoice (no Indian GST)" } : row,
  );
}

export interface Faq {
  question: string;
  answer: string;
}

export const pricingFaq: readonly Faq[] = [
  {
    question: "Do the prices include GST?",
    answer:
      "Yes. Every price shown includes 18% GST. Each payment gets a GST tax invoice in your account; add your GSTIN to claim input tax credit.",
  },
  {
    question: "Can I switch between monthly and yearly billing?",
    answer:
      "Yes. The change takes effect at the end of your current billing period, so you are never charged twice for the same days.",
  },
  {
    question: "How do I cancel?",
    answer:
      "From Account → Subscription, at any time. You keep Pro until the end of the period you paid for, and nothing further is charged.",
  },
  {
    question: "What happens when I go offline?",
    answer:
      "The desktop app keeps working: its licence stays valid offline for 7 days and renews the next time it connects.",
  },
  {
    question: "Which payment methods can I use?",
    answer: PAYMENT_METHODS_TEXT,
  },
  {
    question: "Can my company buy Pro for its team?",
    answer: `Yes. Create a team under Account → Teams with the company's billing details and GSTIN, buy seats and invite your colleagues: each seat gives one person Pro. Monthly: ${seatTiersText("monthly")}. Yearly: ${seatTiersText("yearly")}. Every payment gets a GST tax invoice in the company's name. Seats added during a period cost their share of the days left; seats removed go at the end of the period.`,
  },
  {
    question: "Is there a refund if it is not for me?",
    answer:
      "Yes: ask within 7 days of your first payment of a new subscription and we refund it in full. See the refund policy for the details.",
  },
];

/**
 * The questions as a buyer in `currency` reads them (issue 56): abroad, tax, payment and team
 * answers say what the site does for a buyer outside India; the others are the same.
 */
export function pricingFaqFor(currency: Currency): readonly Faq[] {
  if (currency === "INR") return pricingFaq;
  const abroad: Record<string, string> = {
    "Do the prices include GST?": `Prices in ${currencyName(currency)} are for buyers outside India, and no Indian GST is charged on them: each payment gets an export invoice (an export of services under our Letter of Undertaking) in ${currencyName(currency)}, with its value in rupees; a business may add its VAT or tax id. We do not charge other countries' taxes, such as VAT or sales tax.`,
    "Which payment methods can I use?": PAYMENT_METHODS_ABROAD_TEXT,
    "Can my company buy Pro for its team?": `Teams buy seats in rupees, with GST, with a billing address in India. For a team outside India, write to us and we will help.`,
  };
  return pricingFaq.map((faq) => {
    const answer = abroad[faq.question];
    if (!answer) return faq;
    return faq.question === "Do the prices include GST?"
      ? { question: "Is tax included in the price?", answer }
      : { ...faq, answer };
  });
}
