import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // Server middleware runs before every loader and action: the route guards live there.
    v8_middleware: true,
  },
} satisfies Config;
