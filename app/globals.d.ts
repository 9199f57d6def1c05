/** Replaced at build time by vite.config.ts: the id of this build, shared by client and server. */
declare const __BUILD_ID__: string;
declare const __BUILT_AT__: string;
