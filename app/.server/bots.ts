import { isbot } from "isbot";

/**
 * Command-line HTTP clients are people at a terminal (and the way operators check a deploy), not
 * crawlers: they get the same pages a browser does. isbot lists them as bots.
 */
const TERMINAL_CLIENT = /^(curl|wget|httpie|xh)\//i;

/** True for crawlers and other automated agents, which get plain-text error responses. */
export function isBot(userAgent: string | null | undefined): boolean {
  if (!userAgent) return false;
  return isbot(userAgent) && !TERMINAL_CLIENT.test(userAgent);
}
