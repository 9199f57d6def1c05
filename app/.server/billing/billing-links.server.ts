/**
 * Billing without a password, from the mail (issue 59, point 2; decision 0072): the renewal
 * notice, the receipt and the failed-payment mail carry a link that opens that one subscription's
 * billing page (`/manage/{token}`) for the billing actions only. It is:
 *
 * - single-purpose: one subscription, the commands in `BILLING_LINK_ACTIONS`, never the account's
 *   settings, security or data; it signs nobody in;
 * - expiring: `BILLING_LINK_DAYS` after the mail, and at once after it was used for a payment
 *   (paying the missed charge, or authorising a new payment method);
 * - kept as a SHA-256 of a 256-bit token, and logged: every action is in the audit log.
 */
import { eq } from "drizzle-orm";
import { db as defaultDb, type Executor } from "../db";
import {
  billingLinks,
  type BillingLinkRow,
  subscriptions,
  type SubscriptionRow,
  user as users,
} from "../db/schema";
import { auditBySite } from "../admin/audit.server";
import { hashToken, randomToken } from "../security/tokens";
import { BILLING_LINK_DAYS } from "~/lib/billing-link";

export { BILLING_LINK_DAYS };
const DAY_MS = 86_400_000;

/** The commands a link may run; anything else is refused with 403. */
export const BILLING_LINK_ACTIONS = ["pay", "change-method", "pause", "resume", "cancel"] as const;
export type BillingLinkAction = (typeof BILLING_LINK_ACTIONS)[number];

export function isBillingLinkAction(value: unknown): value is BillingLinkAction {
  return (BILLING_LINK_ACTIONS as readonly unknown[]).includes(value);
}

/** A new link for a person's subscription, sent with `template`: the token for its URL. */
export async function issueBillingLink(
  executor: Executor,
  subscription: Pick<SubscriptionRow, "id" | "userId">,
  template: string,
  now = new Date(),
): Promise<string | null> {
  if (!subscription.userId) return null;
  const token = randomToken();
  await executor.insert(billingLinks).values({
    tokenHash: hashToken(token),
    subscriptionId: subscription.id,
    userId: subscription.userId,
    sentWith: template,
    expiresAt: new Date(now.getTime() + BILLING_LINK_DAYS * DAY_MS),
  });
  return token;
}

export type OpenedLink =
  | {
      ok: true;
      link: BillingLinkRow;
      subscription: SubscriptionRow;
      user: { id: string; email: string; name: string };
    }
  | { ok: false; reason: "unknown" | "expired" | "used" };

/** The link a token names, if it still works. */
export async function openBillingLink(
  token: string,
  executor: Executor = defaultDb(),
  now = new Date(),
): Promise<OpenedLink> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, reason: "unknown" };
  const [row] = await executor
    .select({ link: billingLinks, subscription: subscriptions, user: users })
    .from(billingLinks)
    .innerJoin(subscriptions, eq(subscriptions.id, billingLinks.subscriptionId))
    .innerJoin(users, eq(users.id, billingLinks.userId))
    .where(eq(billingLinks.tokenHash, hashToken(token)));
  if (!row) return { ok: false, reason: "unknown" };
  if (row.link.usedForPaymentAt) return { ok: false, reason: "used" };
  if (row.link.expiresAt <= now) return { ok: false, reason: "expired" };
  return {
    ok: true,
    link: row.link,
    subscription: row.subscription,
    user: { id: row.user.id, email: row.user.email, name: row.user.name },
  };
}

/** After a payment through the link (or a new mandate): it works no more. */
export async function markLinkUsedForPayment(
  executor: Executor,
  linkId: string,
  now = new Date(),
): Promise<void> {
  await executor
    .update(billingLinks)
    .set({ usedForPaymentAt: now })
    .where(eq(billingLinks.id, linkId));
}

/** Every use is logged: who (the customer, by the link), what, on which subscription. */
export async function logLinkUse(
  executor: Executor,
  opened: Extract<OpenedLink, { ok: true }>,
  action: BillingLinkAction | "open" | "refused",
  detail: unknown = null,
): Promise<void> {
  await auditBySite(executor, {
    action: `billing-link.${action}`,
    targetUserId: opened.user.id,
    target: opened.subscription.providerSubscriptionId,
    reason: `by ${opened.user.email} through the link sent with the ${opened.link.sentWith} mail`,
    before: null,
    after: detail,
  });
}
