/**
 * Bodies smaller than this with a declared Content-Length are sent as they are: compressing a
 * few hundred bytes costs more than it saves. The compression middleware (server/express-app.ts)
 * and the fast answers (server/fast-answers.ts) both follow it, so a feed is the same bytes
 * whichever door answers it.
 */
export const COMPRESSION_THRESHOLD = 1024;
