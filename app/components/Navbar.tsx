import { type ToggleEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { site } from "~/config/site";
import { useAuth } from "~/lib/auth-state";
import { browserPlatform, type DetectedPlatform } from "~/lib/platform";
import { PrefetchLink, PrefetchNavLink } from "~/lib/prefetch";
import { useHydrated } from "~/lib/use-hydrated";
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

/**
 * The visitor's system, read in the browser: public pages are the same cached bytes for everyone,
 * so the server renders (and hydration starts from) "other", then the browser's answer replaces it.
 */
function useBrowserPlatform(): DetectedPlatform {
  return useHydrated() ? browserPlatform() : "other";
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

/** Whether this browser has the Popover API (Baseline 2024); the menu falls back to React state. */
function supportsPopover(): boolean {
  return typeof HTMLElement !== "undefined" && "showPopover" in HTMLElement.prototype;
}

function isPopoverOpen(element: HTMLElement): boolean {
  return supportsPopover() && element.matches(":popover-open");
}

/**
 * The mobile menu is a popover the button opens with `popovertarget`: it works before the page's
 * scripts have run (decision record 0026: the page is visible before they are), closes on Escape
 * and on a tap outside, and sits above the consent banner. React follows its state from the
 * `toggle` event, closes it on navigation, and opens it itself where the Popover API is missing.
 */
function useMobileMenu() {
  const location = useLocation();
  const menuRef = useRef<HTMLDivElement | null>(null);
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();

  // It may have been opened before React took over.
  const attachMenu = useCallback((menu: HTMLDivElement | null) => {
    menuRef.current = menu;
    if (menu && isPopoverOpen(menu)) setOpen(true);
  }, []);

  // Any navigation closes it (the key changes on every navigation, even to the same path); the
  // first render is no navigation, and the menu may already be open.
  const shownAt = useRef(location.key);
  useEffect(() => {
    if (shownAt.current === location.key) return;
    shownAt.current = location.key;
    const menu = menuRef.current;
    if (menu && isPopoverOpen(menu)) menu.hidePopover();
    else setOpen(false);
  }, [location.key]);

  return {
    open,
    attachMenu,
    /** The popover toggles itself; only without the Popover API does the click do the work. */
    onToggleClick: () => {
      if (!supportsPopover()) setOpen((wasOpen) => !wasOpen);
    },
    onMenuToggle: (event: ToggleEvent<HTMLDivElement>) => setOpen(event.newState === "open"),
    /**
     * Before hydration the browser itself tells assistive technology whether a popover is
     * expanded; a fixed `aria-expanded="false"` from the server would contradict it.
     */
    expanded: hydrated ? open : undefined,
  };
}

export function Navbar() {
  const menuId = useId();
  const mobileSearchId = useId();
  const platform = useBrowserPlatform();
  const { open, attachMenu, onToggleClick, onMenuToggle, expanded } = useMobileMenu();

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
          popoverTarget={menuId}
          aria-expanded={expanded}
          aria-controls={menuId}
          onClick={onToggleClick}
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
        ref={attachMenu}
        popover="auto"
        onToggle={onMenuToggle}
        data-open={open ? "" : undefined}
        className="mobile-menu fixed inset-x-0 top-16 bottom-auto m-0 max-h-[calc(100dvh-4rem)] w-full overflow-y-auto border-x-0 border-y border-slate-800 shadow-xl shadow-black/40 bg-slate-950 px-4 pb-4 pt-2 text-slate-100 md:hidden"
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
