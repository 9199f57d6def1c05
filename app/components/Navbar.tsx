import { useId, useState, useSyncExternalStore } from "react";
import { Form, Link, useLocation } from "react-router";
import { site } from "~/config/site";
import { useAuth } from "~/lib/auth-state";
import { browserPlatform, type DetectedPlatform } from "~/lib/platform";
import { PrefetchLink, PrefetchNavLink } from "~/lib/prefetch";
import { LogoMark } from "./Logo";

const MAIN_LINKS = [
  { to: "/", label: "Home", end: true },
  { to: "/pricing", label: "Pricing", end: false },
  // Not `end`: a post (/blog/:slug) is part of the blog.
  { to: "/blog", label: "Blog", end: false },
  { to: "/feedback", label: "Feedback", end: false },
] as const;

const DOWNLOAD_LABEL: Record<DetectedPlatform, string> = {
  mac: "Download for Mac",
  windows: "Download for Windows",
  other: "Download",
};

const neverChanges = () => () => {};

/**
 * The visitor's system, read in the browser: public pages are the same cached bytes for everyone,
 * so the server renders (and hydration starts from) "other", then the browser's answer replaces it.
 */
function useBrowserPlatform(): DetectedPlatform {
  return useSyncExternalStore(
    neverChanges,
    () => browserPlatform(),
    (): DetectedPlatform => "other",
  );
}

/** /auth shows the log-in form for any other view (viewOf in app/routes/auth/auth.tsx). */
const NOT_LOG_IN_VIEWS = new Set(["signup", "forgot", "reset"]);

function onLogInView({ pathname, search }: { pathname: string; search: string }): boolean {
  const view = new URLSearchParams(search).get("view") ?? "";
  return /^\/auth\/?$/i.test(pathname) && !NOT_LOG_IN_VIEWS.has(view);
}

function linkClass({ isActive }: { isActive: boolean }) {
  return `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? "text-green-400" : "text-slate-300 hover:text-white"
  }`;
}

/**
 * "Log in" once we know nobody is signed in; "Account" once we know someone is; nothing while
 * loading. "Log in" is the current page on the log-in form only, not on sign-up or a reset.
 */
function AuthLink({ mobile }: { mobile: boolean }) {
  const { state } = useAuth();
  const location = useLocation();
  const className = mobile ? mobileLinkClass : linkClass;
  if (state.status === "signed-in") {
    return (
      <PrefetchNavLink to="/account" className={className}>
        Account
      </PrefetchNavLink>
    );
  }
  if (state.status === "signed-out") {
    const current = onLogInView(location);
    return (
      <PrefetchLink
        to="/auth"
        aria-current={current ? "page" : undefined}
        className={className({ isActive: current })}
      >
        Log in
      </PrefetchLink>
    );
  }
  return null;
}

function mobileLinkClass({ isActive }: { isActive: boolean }) {
  return `block rounded-md px-3 py-2 text-base font-medium ${
    isActive ? "bg-slate-800 text-green-400" : "text-slate-200 hover:bg-slate-800"
  }`;
}

export function Navbar() {
  const location = useLocation();
  const menuId = useId();
  const mobileSearchId = useId();
  const platform = useBrowserPlatform();
  // The menu stays open only on the location it was opened at: any navigation closes it.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const open = openedAt === location.key;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6"
      >
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-white">
          <LogoMark />
          <span>{site.product.name}</span>
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          {MAIN_LINKS.map((link) => (
            <PrefetchNavLink key={link.to} to={link.to} end={link.end} className={linkClass}>
              {link.label}
            </PrefetchNavLink>
          ))}
          <AuthLink mobile={false} />
          {/* Between md and lg the search field does not fit: the search page is one tap away. */}
          <PrefetchLink
            to="/search"
            aria-label="Search"
            className="ml-1 inline-flex items-center justify-center rounded-md p-2 text-slate-300 hover:text-white lg:hidden"
          >
            <svg
              viewBox="0 0 24 24"
              className="h-5 w-5"
              aria-hidden="true"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <circle cx="11" cy="11" r="7" />
              <path d="M20 20l-3.5-3.5" />
            </svg>
          </PrefetchLink>
          <Form
            action="/search"
            method="get"
            role="search"
            aria-label="Site search"
            className="ml-2 hidden lg:block"
          >
            <label htmlFor="navbar-search" className="sr-only">
              Search the site
            </label>
            <input
              id="navbar-search"
              type="search"
              name="q"
              placeholder="Search"
              className="w-36 rounded-md border border-slate-700 bg-slate-900 px-3 py-1.5 text-sm text-slate-100 placeholder:text-slate-400 focus:w-48 focus:border-green-400 focus:outline-none"
            />
          </Form>
          <PrefetchLink to="/download" className="btn-primary ml-2">
            Download
          </PrefetchLink>
        </div>

        <button
          type="button"
          className="inline-flex items-center justify-center rounded-md p-2 text-slate-200 hover:bg-slate-800 md:hidden"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpenedAt(open ? null : location.key)}
        >
          <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
          <svg
            viewBox="0 0 24 24"
            className="h-6 w-6"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </nav>

      <div
        id={menuId}
        hidden={!open}
        className="border-t border-slate-800 px-4 pb-4 pt-2 md:hidden"
      >
        <Form action="/search" method="get" role="search" aria-label="Site search" className="mb-2">
          <label htmlFor={mobileSearchId} className="sr-only">
            Search the site
          </label>
          <div className="flex gap-2">
            <input
              id={mobileSearchId}
              type="search"
              name="q"
              placeholder="Search"
              className="min-w-0 flex-1 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base text-slate-100 placeholder:text-slate-400 focus:border-green-400 focus:outline-none"
            />
            <button type="submit" className="btn-secondary">
              Search
            </button>
          </div>
        </Form>
        <nav aria-label="Mobile" className="flex flex-col gap-1">
          {MAIN_LINKS.map((link) => (
            <PrefetchNavLink key={link.to} to={link.to} end={link.end} className={mobileLinkClass}>
              {link.label}
            </PrefetchNavLink>
          ))}
          <PrefetchNavLink to="/legal" className={mobileLinkClass}>
            Legal
          </PrefetchNavLink>
          <AuthLink mobile />
          <PrefetchLink to="/download" className="btn-primary mt-2 w-full">
            {DOWNLOAD_LABEL[platform]}
          </PrefetchLink>
        </nav>
      </div>
    </header>
  );
}
