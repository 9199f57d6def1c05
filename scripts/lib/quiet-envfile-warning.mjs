/**
 * Preloaded (`node --import`) by the build, typegen and dev commands (issue 55: a warning a
 * newcomer sees must mean something). React Router 7.18 starts Vite's internal servers (its config
 * loader and its child compiler) with `envFile: false`, which Vite 8 calls deprecated and warns
 * about on every start: nine lines per build that nobody here can act on. Vite prints them through
 * `console.warn`; only that one message is dropped, every other warning is printed.
 *
 * Remove this file and its `--import` in package.json when React Router passes `envDir: false`
 * (7.18.7, the newest 7.x on 7 Dec 2026, still does not). `scripts/lib/quiet-envfile-warning.test.ts`
 * fails once the message no longer comes, so its removal is not forgotten.
 */
const DEPRECATION = "The `envFile` option is deprecated";
const warn = console.warn.bind(console);
console.warn = (...args) => {
  if (typeof args[0] === "string" && args[0].includes(DEPRECATION)) return;
  warn(...args);
};
