import type { ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  Link,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { markPrivate } from "~/.server/auth/guards";
import { retryAfterOnUnavailable, serviceUnavailableOnOutage } from "~/.server/db/outage";
import { env } from "~/.server/env";
import { ConsentBanner } from "~/components/ConsentBanner";
import { Footer } from "~/components/Footer";
import { JsonLd } from "~/components/JsonLd";
import { Navbar } from "~/components/Navbar";
import { VersionToast } from "~/components/VersionToast";
import { site } from "~/config/site";
import { AnalyticsProvider } from "~/lib/analytics/provider";
import { AuthProvider } from "~/lib/auth-state";
import { isChunkLoadError } from "~/lib/chunk-reload";
import { HEAD_SCRIPT } from "~/lib/head-script";
import { useNonce } from "~/lib/nonce";
import { pageMeta } from "~/lib/meta";
import { siteStructuredData } from "~/lib/structured-data";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";

export const DEFAULT_OG_IMAGE = "/og/og-default.jpg";

/**
 * Responses of guarded routes (app/routes/guards/*) are never stored by any cache; a failure
 * while the database is down is a 503 page, not a 500.
 */
export const middleware: Route.MiddlewareFunction[] = [
  markPrivate,
  retryAfterOnUnavailable,
  serviceUnavailableOnOutage,
];

export function loader() {
  const { SITE_URL, GA_MEASUREMENT_ID } = env();
  return { siteUrl: SITE_URL, gaMeasurementId: GA_MEASUREMENT_ID ?? null };
}

export const links: Route.LinksFunction = () => [
  // A React 19 stylesheet resource: written first in the head, before the modulepreload links, so
  // the stylesheet the first paint waits for is requested ahead of the scripts (decision 0026).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/logo.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export const meta: Route.MetaFunction = ({ error }) =>
  error ? [] : pageMeta(site.product.name, site.product.description);

/**
 * Paths under /admin have their own layout: no site navbar or footer there. Error pages always
 * have them (a non-admin's 403 under /admin must still lead somewhere).
 */
export function hasSiteChrome(pathname: string, error?: unknown): boolean {
  // Lower-cased: the server sends other spellings to /admin… (`canonicalCase` in
  // server/express-app.ts), but a link inside the app reaches here without asking the server.
  return (error !== undefined && error !== null) || !pathname.toLowerCase().startsWith("/admin");
}

export function Layout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const data = useRouteLoaderData<typeof loader>("root");
  const siteUrl = data?.siteUrl;
  const chrome = hasSiteChrome(location.pathname, useRouteError());
  const nonce = useNonce();
  const canonical = siteUrl
    ? `${siteUrl}${location.pathname === "/" ? "/" : location.pathname}`
    : undefined;
  const ogImage = siteUrl ? `${siteUrl}${DEFAULT_OG_IMAGE}` : DEFAULT_OG_IMAGE;

  return (
    // The head script below marks <html> before hydration when a cookie choice is made.
    <html lang={site.language} className="dark" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        {/* Browsers hide a nonce from the DOM once parsed: hydration sees it differ. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: HEAD_SCRIPT }}
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={site.theme.themeColor} />
        <meta name="color-scheme" content="dark" />
        <Meta />
        {canonical ? <link rel="canonical" href={canonical} /> : null}
        {canonical ? <meta property="og:url" content={canonical} /> : null}
        <meta property="og:site_name" content={site.product.name} />
        <meta property="og:locale" content="en_IN" />
        <meta property="og:image" content={ogImage} />
        <meta property="og:image:width" content="1200" />
        <meta property="og:image:height" content="630" />
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:image" content={ogImage} />
        <Links />
        {siteUrl ? <JsonLd data={siteStructuredData(siteUrl)} /> : null}
      </head>
      <body className="flex min-h-screen flex-col bg-slate-950 text-slate-100">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-green-500 focus:px-3 focus:py-2 focus:text-slate-950"
        >
          Skip to content
        </a>
        <AuthProvider>
          <AnalyticsProvider gaMeasurementId={data?.gaMeasurementId ?? null}>
            {chrome ? <ConsentBanner /> : null}
            {chrome ? <Navbar /> : null}
            {chrome ? (
              <main id="main" tabIndex={-1} className="flex-1 outline-none">
                {children}
              </main>
            ) : (
              children
            )}
            {chrome ? <Footer /> : null}
            <VersionToast />
          </AnalyticsProvider>
        </AuthProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

function ErrorPage({
  title,
  heading = title,
  message,
  children,
}: {
  /** The tab title (with the site name), as the spec names the page. */
  title: string;
  /** What the page says at the top, when it should say more than its title. */
  heading?: string;
  message: string;
  children?: ReactNode;
}) {
  return (
    <div className="prose-page text-center">
      <title>{`${title} | ${site.product.name}`}</title>
      <h1 className="text-3xl font-bold text-white">{heading}</h1>
      <p className="mt-4 text-slate-300">{message}</p>
      {children}
      <p className="mt-8">
        <a href="/" className="btn-primary">
          Back to the home page
        </a>
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const location = useLocation();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      return (
        <ErrorPage
          title="Page Not Found"
          heading="This page does not exist"
          message={`Page not found: ${location.pathname}`}
        >
          <p className="mt-2 text-slate-400">
            The link may have a typo, or the page has moved. Try the{" "}
            <Link className="link" to="/search">
              search
            </Link>{" "}
            or the{" "}
            <Link className="link" to="/blog">
              blog
            </Link>
            .
          </p>
        </ErrorPage>
      );
    }
    if (error.status === 403) {
      const message =
        typeof error.data === "object" && error.data && "message" in error.data
          ? String(error.data.message)
          : "You do not have permission to see this page.";
      return <ErrorPage title="Forbidden" message={message} />;
    }
    if (error.status === 503) {
      const message =
        typeof error.data === "object" && error.data && "message" in error.data
          ? String(error.data.message)
          : "The site is busy or being updated. Please try again in a minute.";
      return (
        <ErrorPage title="Service Unavailable" message={message}>
          <p className="mt-6">
            <button
              type="button"
              className="btn-secondary"
              onClick={() => window.location.reload()}
            >
              Try again
            </button>
          </p>
        </ErrorPage>
      );
    }
    if (error.status < 500) {
      const message =
        typeof error.data === "object" && error.data && "message" in error.data
          ? String(error.data.message)
          : "The request could not be completed.";
      return (
        <ErrorPage
          title={error.status === 400 ? "Bad Request" : `Error ${error.status}`}
          message={message}
        />
      );
    }
  }
  if (isChunkLoadError(error)) {
    // A route module failed to load and the page already reloaded for it moments ago.
    return (
      <ErrorPage
        title="Page Failed to Load"
        message="Part of this page could not be downloaded. The connection may have dropped, or a new version of the site was just published."
      >
        <p className="mt-6">
          <button type="button" className="btn-secondary" onClick={() => window.location.reload()}>
            Reload
          </button>
        </p>
      </ErrorPage>
    );
  }
  const showStack = import.meta.env.DEV && error instanceof Error;
  return (
    <ErrorPage
      title="Internal Server Error"
      message="Something went wrong on our side. It has been logged; please try again in a moment."
    >
      {showStack ? (
        <pre className="mt-6 overflow-x-auto rounded bg-slate-900 p-4 text-left text-xs text-red-300">
          {error.stack}
        </pre>
      ) : null}
    </ErrorPage>
  );
}
