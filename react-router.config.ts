import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // Server middleware runs before every loader and action: the route guards live there.
    v8_middleware: true,
    // The other v8 behaviours stay off until each is taken on with its own change and tests
    // (the `.data` request format is in the tests' own requests, for one); named here so the
    // build does not warn about each on every run.
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
