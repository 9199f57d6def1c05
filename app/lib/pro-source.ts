/**
 * Where a person's Pro comes from, in words for the account pages (issue 54, point 2, in part):
 * a team's seat names the team and who manages it. Null when the plan is the person's own (or
 * Free): their subscription's own card says the rest.
 */
export function proSourceText(entitlement: {
  plan: string;
  team?: { id: string; name: string };
}): string | null {
  if (entitlement.plan === "free" || !entitlement.team) return null;
  return `From a seat of ${entitlement.team.name}'s subscription: the team's owner or billing manager manages it.`;
}
