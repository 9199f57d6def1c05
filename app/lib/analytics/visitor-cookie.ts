/**
 * The cookie that carries a consenting visitor's analytics id: issued and signed by the server
 * (app/.server/analytics/visitor-id.server.ts), so an id cannot be made up; readable by the page
 * only so that withdrawing consent can delete it at once.
 */
export const ANALYTICS_ID_COOKIE = "pinout_aid";

/** The header that deletes it (the no-JavaScript "Decline" and the server's refusals). */
export function expiredAnalyticsIdCookie(secure: boolean): string {
  return `${ANALYTICS_ID_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure ? "; Secure" : ""}`;
}
