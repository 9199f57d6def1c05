/**
 * Where a person's plan comes from, in words for the account pages (issue 54, point 2): their own
 * subscription, a free trial with its end, a grant with its end, or a team's seat naming the team.
 * One function, so /account and /account/subscription never disagree.
 */
import { formatDate } from "./dates";
import { planLabel } from "./plans";
import { trialCountdown } from "./trials";

export type PlanSourceKind = "free" | "subscription" | "trial" | "grant" | "team";

export interface PlanShown {
  /** The plan's name as the pages show it: "Pro (monthly)", "Pro (free trial)", "Free". */
  name: string;
  kind: PlanSourceKind;
  /** Where it comes from, in a sentence; null for Free and for one's own subscription. */
  text: string | null;
  /** The team whose seat gives it, for a link to its page. */
  teamId: string | null;
}

export function planShown(input: {
  entitlement: { plan: string; expires_at: string | null; team?: { id: string; name: string } };
  /** The person's own subscription that gives the plan now (its plan id), if one does. */
  ownPlanId: string | null;
  /** A free trial running now: when it ends. */
  trialEndsAt: string | null;
  now: Date;
}): PlanShown {
  const { entitlement, ownPlanId, trialEndsAt, now } = input;
  if (entitlement.plan === "free") return { name: "Free", kind: "free", text: null, teamId: null };
  if (ownPlanId)
    return { name: planLabel(ownPlanId), kind: "subscription", text: null, teamId: null };
  if (entitlement.team)
    return {
      name: planLabel(entitlement.plan),
      kind: "team",
      text: proSourceText(entitlement),
      teamId: entitlement.team.id,
    };
  if (trialEndsAt)
    return {
      name: "Pro (free trial)",
      kind: "trial",
      text: `${trialCountdown(trialEndsAt, now)}. Nothing is charged: your account moves to Free by itself unless you choose a plan.`,
      teamId: null,
    };
  return {
    name: planLabel(entitlement.plan),
    kind: "grant",
    text: entitlement.expires_at
      ? `Given to your account until ${formatDate(entitlement.expires_at)}; nothing is charged.`
      : "Given to your account; nothing is charged.",
    teamId: null,
  };
}

/** A team seat's words: the team, and who manages it. Null when the plan is not a seat's. */
export function proSourceText(entitlement: {
  plan: string;
  team?: { id: string; name: string; floating?: true };
}): string | null {
  if (entitlement.plan === "free" || !entitlement.team) return null;
  if (entitlement.team.floating)
    return `From ${entitlement.team.name}'s floating seats: Pro in the desktop app on a machine while one of the team's seats is free. The team's owner or billing manager manages them.`;
  return `From a seat of ${entitlement.team.name}'s subscription: the team's owner or billing manager manages it.`;
}
