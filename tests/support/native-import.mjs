// Node's own dynamic import, loaded by Node itself (vitest.config.ts lists this file as external):
// the in-process site (site.ts) imports the server bundle once per site with a query, and only
// Node's loader makes each such import a new module instance.
/** @param {string} specifier */
export function nativeImport(specifier) {
  return import(specifier);
}
