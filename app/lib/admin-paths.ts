/**
 * The operator's page of a customer, found by their address: every list, ticket, alert and
 * queue row links here, so the page each customer gets can change in this one place.
 */
export function customerPagePath(email: string): string {
  return `/admin-fix-subscription?${new URLSearchParams({ email })}`;
}
