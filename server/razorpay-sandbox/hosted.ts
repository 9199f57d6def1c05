/**
 * The hosted page behind a subscription's `short_url`: "Update payment method — Test mode".
 * Server-rendered HTML with no inline script or style (the site's CSP); its logic is hosted.js
 * (browser/hosted-page.ts), which reads what it needs from the page (the form's data-action).
 */
import { upiMandate } from "./upi";
import { formatAmount, perText } from "./browser/format";
import type { Method, PlanEntity, SubscriptionEntity } from "./entities";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A same-origin relative path ("/account"), never "//host" or "/\host". */
export function safeReturnPath(value: string | null): string | null {
  if (value === null || value.length > 2000) return null;
  return /^\/(?![/\\])[^\s\\]*$/.test(value) ? value : null;
}

function layout(title: string, root: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(root)}/checkout.css">
<script src="${escapeHtml(root)}/hosted.js" defer></script>
</head>
<body class="rzp-sbx-page">
<main class="rzp-sbx-dialog rzp-sbx-standalone" aria-labelledby="rzp-sbx-title">
${main}
<p class="rzp-sbx-footnote">Razorpay sandbox: no real money moves.</p>
</main>
</body>
</html>
`;
}

const HINTS: Partial<Record<SubscriptionEntity["status"], string>> = {
  created: "Authorising starts the subscription.",
  pending: "The last charge failed. Authorising a new method charges the amount now.",
  halted:
    "Charges stopped after repeated failures. Authorising a new method charges the amount now.",
};

export function hostedPage(input: {
  root: string;
  subscription: SubscriptionEntity;
  plan: PlanEntity;
  method: Method | null;
  returnTo: string | null;
}): string {
  const { subscription: sub, plan } = input;
  const mandate = upiMandate(sub.id, plan.item.name, plan.item.amount * sub.quantity);
  const amount = formatAmount(plan.item.amount * sub.quantity, plan.item.currency);
  const open = ["created", "authenticated", "active", "pending", "halted"].includes(sub.status);
  // UPI moves rupees only; a card for a charge in another currency is one issued abroad.
  const rupees = plan.item.currency === "INR";
  const upi = rupees && input.method === "upi";
  const testCard = rupees ? "4718 6091 0820 4366" : "4012 8888 8888 1881 (issued outside India)";
  const back = safeReturnPath(input.returnTo);
  const hint = HINTS[sub.status];
  const form = open
    ? `<form id="rzp-sbx-form" data-action="${escapeHtml(`${input.root}/hosted/${sub.id}/authorise`)}" novalidate>
<fieldset class="rzp-sbx-methods"><legend>Payment method</legend>
<label class="rzp-sbx-choice"><input type="radio" name="method" value="card"${upi ? "" : " checked"}> <span>Card</span></label>
<label class="rzp-sbx-choice"${rupees ? "" : " hidden"}><input type="radio" name="method" value="upi"${upi ? " checked" : ""}> <span>UPI AutoPay</span></label>
</fieldset>
<p class="rzp-sbx-testcard" id="rzp-sbx-card"${upi ? " hidden" : ""}>Test card ${testCard}</p>
<div class="rzp-sbx-field" id="rzp-sbx-upi"${upi ? "" : " hidden"}><img class="rzp-sbx-qr" src="${mandate.qr}" alt="QR code of the UPI AutoPay mandate" width="176" height="176"><p class="rzp-sbx-muted">Scan with your UPI app and approve the AutoPay mandate there.</p></div>
<div class="rzp-sbx-actions"><button type="submit" class="rzp-sbx-button rzp-sbx-primary">Authorise</button></div>
</form>
<noscript><p class="rzp-sbx-alert">This test page needs JavaScript.</p></noscript>`
    : `<p>This subscription is ${escapeHtml(sub.status)}; there is nothing to authorise.</p>`;
  return layout(
    "Update payment method — Test mode",
    input.root,
    `<div class="rzp-sbx-header"><h1 id="rzp-sbx-title" class="rzp-sbx-heading">Update payment method</h1><span class="rzp-sbx-badge">Test mode</span></div>
<p class="rzp-sbx-muted">${escapeHtml(plan.item.name)}: ${escapeHtml(amount)} ${escapeHtml(perText(plan.period, plan.interval))}</p>
<p>Subscription ${escapeHtml(sub.id)} is <strong id="rzp-sbx-current">${escapeHtml(sub.status)}</strong>.</p>
${hint ? `<p class="rzp-sbx-note">${escapeHtml(hint)}</p>` : ""}
${form}
<p class="rzp-sbx-status" role="status" id="rzp-sbx-status"></p>
${back ? `<p><a href="${escapeHtml(back)}">Back to the site</a></p>` : ""}`,
  );
}

export function notFoundPage(root: string): string {
  return layout(
    "Not found — Test mode",
    root,
    `<h1 id="rzp-sbx-title" class="rzp-sbx-heading">Subscription not found</h1>
<p>The id provided does not exist.</p>`,
  );
}
