import { env } from "../env";

/** A ticket's page on the site, for the customer or the team (absolute, for mail). */
export function ticketUrl(side: "customer" | "team", number: number): string {
  const base = env().SITE_URL;
  return side === "customer"
    ? `${base}/account/support/${number}`
    : `${base}/admin/support/${number}`;
}
