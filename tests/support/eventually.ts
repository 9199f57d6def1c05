/** Waiting for work the site does after answering (webhooks, jobs), polled with a bound. */

/** Polls until `check` returns a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 20_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}
