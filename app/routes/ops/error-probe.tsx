import { data } from "react-router";
import { env } from "~/.server/env";

/**
 * Lets an operator (and the test suite) check the whole error path after a deploy: the 500 page,
 * the log line with the request id, the bot response. Off unless ERROR_PROBE=true: then a 404.
 */
export function loader() {
  if (!env().ERROR_PROBE) throw data(null, { status: 404 });
  throw new Error("error probe: deliberate failure to check error reporting");
}

/** A component makes this a page route, so its failure renders the real 500 page. */
export default function ErrorProbe() {
  return null;
}
