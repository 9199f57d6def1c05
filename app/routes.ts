import {
  type RouteConfig,
  type RouteConfigEntry,
  index,
  layout,
  prefix,
  route,
} from "@react-router/dev/routes";

/**
 * The one place that says which pages need sign-in or a role: every route nested in
 * `guarded(name, …)` runs that guard's middleware (app/routes/guards/<name>.tsx, the guards in
 * app/.server/auth/guards.ts) before its loaders and actions, matched on the decoded path by
 * React Router itself. /login-success is guarded (docs/decisions/0015) and so is
 * /admin-fix-subscription (0005).
 */
function guarded(
  name: "auth" | "account" | "admin",
  children: RouteConfigEntry[],
): RouteConfigEntry {
  return layout(`routes/guards/${name}.tsx`, children);
}

/** Every URL of the site. */
export default [
  index("routes/home.tsx"),
  route("landing", "routes/landing.tsx"),
  route("pricing", "routes/pricing.tsx"),
  route("pricing/currency", "routes/pricing-currency.ts"),
  route("download", "routes/download.tsx"),
  route("download/history", "routes/download-history.tsx"),
  route("download/:platform/:version?", "routes/downloads/file.ts"),
  route("feedback", "routes/feedback.tsx"),
  route("search", "routes/search.tsx"),
  route("about", "routes/about.tsx"),
  route("r/:code", "routes/referral.ts"),

  ...prefix("blog", [
    index("routes/blog/index.tsx"),
    route("rss.xml", "routes/blog/rss.ts"),
    route("atom.xml", "routes/blog/atom.ts"),
    route(":slug", "routes/blog/post.tsx"),
  ]),
  ...prefix("legal", [
    index("routes/legal/index.tsx"),
    route("sample-invoice.pdf", "routes/legal/sample-invoice.ts"),
    route(":page", "routes/legal/page.tsx"),
  ]),

  route("auth", "routes/auth/auth.tsx"),
  route("login-via", "routes/auth/login-via.tsx"),
  route("auth/sign-out", "routes/auth/sign-out.ts"),
  route("consent", "routes/consent.ts"),

  guarded("auth", [
    route("login-success", "routes/auth/login-success.tsx"),
    route("checkout", "routes/billing/checkout.tsx"),
    route("checkout/complete", "routes/billing/checkout-complete.tsx"),
    route("team-invite/:id", "routes/auth/team-invite.tsx"),
  ]),
  // Signed in, as "auth"; the guard reads the account state with the session (decision 0035).
  guarded("account", [
    // The account area's sidebar also frames the billing pages (their URLs stay short).
    layout("routes/account/layout.tsx", [
      ...prefix("account", [
        index("routes/account/overview.tsx"),
        route("usage", "routes/account/usage.tsx"),
        route("profile", "routes/account/profile.tsx"),
        route("security", "routes/account/security.tsx"),
        route("security/export", "routes/account/export.ts"),
        route("licence-file", "routes/account/licence-file.ts"),
        route("subscription", "routes/account/subscription.tsx"),
        route("subscription/cancel", "routes/account/cancel.tsx"),
        route("team", "routes/account/team.tsx"),
        route("team/:id", "routes/account/team-detail.tsx"),
        route("team/:id/seats", "routes/account/team-seats.tsx"),
        route("team/:id/cancel", "routes/account/team-cancel.tsx"),
        route("team/:id/licence-file", "routes/account/team-licence-file.ts"),
        route("support", "routes/account/support.tsx"),
        route("support/:number", "routes/account/support-ticket.tsx"),
      ]),
      route("billing", "routes/billing/billing.tsx"),
      route("invoices", "routes/billing/invoices.tsx"),
      route("invoices/:file", "routes/billing/invoice-pdf.ts"),
      route("fix-subscription", "routes/billing/fix-subscription.tsx"),
    ]),
  ]),

  guarded("admin", [
    layout("routes/admin/layout.tsx", [
      route("admin", "routes/admin/dashboard.tsx"),
      route("admin/users", "routes/admin/users.tsx"),
      route("admin/subscriptions", "routes/admin/subscriptions.tsx"),
      route("admin/invoices", "routes/admin/invoices.tsx"),
      route("admin/exchange-rates", "routes/admin/exchange-rates.tsx"),
      route("admin/coupons", "routes/admin/coupons.tsx"),
      route("admin/retention", "routes/admin/retention.tsx"),
      route("admin/teams", "routes/admin/teams.tsx"),
      route("admin/teams/:id", "routes/admin/team.tsx"),
      route("admin/support", "routes/admin/support.tsx"),
      route("admin/support/:number", "routes/admin/support-ticket.tsx"),
      route("admin/jobs", "routes/admin/jobs.tsx"),
      route("admin/backups", "routes/admin/backups.tsx"),
      route("admin/settings", "routes/admin/settings.tsx"),
      route("admin/analytics", "routes/admin/analytics.tsx"),
      // One customer's page (issue 33, point 5): by id, and by address at the specification's URL.
      route("admin/customers/:id", "routes/admin/fix-subscription.tsx", { id: "admin-customer" }),
      route("admin-fix-subscription", "routes/admin/fix-subscription.tsx"),
      route("admin/disputes", "routes/admin/disputes.tsx"),
      route("admin/disputes/:id", "routes/admin/dispute.tsx"),
      route("admin/releases", "routes/admin/releases.tsx"),
      route("admin/releases/:id", "routes/admin/release.tsx"),
    ]),
    route("admin/invoices/:file", "routes/admin/invoices-export.ts"),
    route("admin/disputes/:id/:file", "routes/admin/dispute-document.ts"),
  ]),

  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),

  // A billing mail's signed link (issue 59, point 2): public, for its one subscription's billing.
  route("manage/:token", "routes/billing/manage-link.tsx"),
  route("api/session", "routes/api/session.ts"),
  route("api/plan", "routes/api/plan.ts"),
  route("api/auth/*", "routes/api/auth.ts"),
  route("api/releases/latest", "routes/api/releases-latest.ts"),
  ...prefix("api/admin/releases", [
    index("routes/api/admin/releases.ts"),
    route(":id", "routes/api/admin/release.ts"),
    route(":id/files/:name", "routes/api/admin/release-file.ts"),
  ]),
  layout("routes/limits/updates.ts", [
    ...prefix("updates", [
      route("tauri/:target/:arch/:current_version", "routes/updates/tauri.ts"),
      route("velopack/:file", "routes/updates/velopack.ts"),
      route(":channel/:feed", "routes/updates/feed.ts"),
    ]),
  ]),
  route("releases/:version/:file", "routes/releases/file.ts"),
  route("api/events", "routes/api/events.ts"),
  route("api/webhooks/razorpay", "routes/api/webhooks-razorpay.ts"),
  layout("routes/limits/functions.ts", [route("api/functions/:name", "routes/api/functions.ts")]),
  layout("routes/limits/desktop.ts", [
    ...prefix("api/desktop", [
      route("token", "routes/desktop/token.ts"),
      route("refresh", "routes/desktop/refresh.ts"),
      route("me", "routes/desktop/me.ts"),
      route("heartbeat", "routes/desktop/heartbeat.ts"),
      route("release-seat", "routes/desktop/release-seat.ts"),
      route("checkout-link", "routes/desktop/checkout-link.ts"),
      route("wait", "routes/desktop/wait.ts"),
      route("openapi.json", "routes/desktop/openapi.ts"),
      route("usage", "routes/desktop/usage.ts"),
      route("logout", "routes/desktop/logout.ts"),
      route("trial", "routes/desktop/trial.ts"),
      route("web-session-token", "routes/desktop/web-session-token.ts"),
    ]),
  ]),
  route(".well-known/jwks.json", "routes/desktop/jwks.ts"),
  route("ops/error-probe", "routes/ops/error-probe.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
