/**
 * The one adapter from a stored subscription to its state (app/lib/subscription-state.ts): the
 * facts the state reads that only the server knows (an end reason that gave no Pro, a checkout
 * confirmed in the browser, a switch that follows).
 */
import { sql, type SQL } from "drizzle-orm";
import {
  stateOf,
  STATUS_RULES,
  type SubscriptionState,
  type SubscriptionStatus,
} from "~/lib/subscription-state";
import { GRANTS_NOTHING_END_REASONS, type SubscriptionRow } from "../db/schema";
import { SWITCHED_PLAN } from "./subscriptions.server";

const GRANTS_NOTHING: ReadonlySet<string> = new Set(GRANTS_NOTHING_END_REASONS);

/** Whether an end reason means the subscription gave no Pro (refunded, a duplicate, …). */
export const endGaveNoPro = (endReason: string | null | undefined): boolean =>
  !!endReason && GRANTS_NOTHING.has(endReason);

export function stateOfRow(
  row: Pick<SubscriptionRow, "status" | "cancelAtCycleEnd"> &
    Partial<
      Pick<
        SubscriptionRow,
        "endReason" | "replacesSubscriptionId" | "checkoutVerifiedAt" | "pausedBy"
      >
    >,
  options: { switchFollows?: boolean } = {},
): SubscriptionState {
  return stateOf({
    status: row.status,
    cancelAtCycleEnd: row.cancelAtCycleEnd,
    checkoutVerified: !!row.checkoutVerifiedAt,
    replacesAnother: !!row.replacesSubscriptionId,
    switchFollows: options.switchFollows ?? false,
    pausedInUpiApp: row.pausedBy === "customer",
    endedWithoutPro: endGaveNoPro(row.endReason),
  });
}

/** `(…)` of statuses for raw SQL (`s.status in ${statusList(…)}`), as bound parameters. */
export function statusList(statuses: readonly SubscriptionStatus[]): SQL {
  return sql`(${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )})`;
}

/**
 * Whether a subscription brings recurring revenue (MRR): paying, and not ending for good. One
 * that ends because a switch or a change of seats replaces it goes on earning until the new one
 * starts (issue 54: a team that added seats dropped out of both MRR figures).
 */
export function recurs(
  row: Pick<SubscriptionRow, "status" | "cancelAtCycleEnd" | "cancelReason">,
): boolean {
  return (
    STATUS_RULES[row.status].paying && (!row.cancelAtCycleEnd || row.cancelReason === SWITCHED_PLAN)
  );
}
