import pino, { type Logger } from "pino";
import { env } from "./env";

export type { Logger };

/**
 * Paths pino blanks out wherever they appear in a log object. Any token, password or secret that
 * reaches a log call by accident is removed here, not in every caller.
 */
export const REDACT_PATHS = [
  "password",
  "*.password",
  "currentPassword",
  "*.currentPassword",
  "newPassword",
  "*.newPassword",
  "token",
  "*.token",
  "*.*.token",
  "access_token",
  "*.access_token",
  "refresh_token",
  "*.refresh_token",
  "code_verifier",
  "*.code_verifier",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.cookie",
  "*.headers.cookie",
  'headers["set-cookie"]',
  "cookie",
];

export function createLogger(
  options: { level?: string; destination?: pino.DestinationStream } = {},
): Logger {
  return pino(
    {
      level: options.level ?? env().LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}

let root: Logger | undefined;

/** The process-wide logger; request handlers use `log.child({ reqId })` from the request context. */
export function logger(): Logger {
  root ??= createLogger();
  return root;
}

/** Sends this copy of the server's log lines to `destination` instead of stdout (the test harness). */
export function configureLogDestination(destination: pino.DestinationStream): Logger {
  root = createLogger({ destination });
  return root;
}
