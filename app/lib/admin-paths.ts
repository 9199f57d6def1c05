/**
 * The operator's page of a customer (issue 33, point 5). By id where the link's row has one: an
 * id outlives a change of address. By address (the specification's /admin-fix-subscription,
 * the same page) where a row only knows the address, such as an alert mailed earlier.
 */
export function customerPageById(userId: string): string {
  return `/admin/customers/${encodeURIComponent(userId)}`;
}

/** The same page, found by the customer's address. */
export function customerPagePath(email: string): string {
  return `/admin-fix-subscription?${new URLSearchParams({ email })}`;
}

/** The admin page of a dispute (chargeback): its deadline and the evidence the site holds. */
export function disputePagePath(disputeId: string): string {
  return `/admin/disputes/${encodeURIComponent(disputeId)}`;
}
