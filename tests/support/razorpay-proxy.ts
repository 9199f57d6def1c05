/**
 * A proxy in front of the server's payment sandbox, for tests that count or hold the site's
 * Razorpay calls: point RAZORPAY_API_URL at `apiUrl`, then `retarget` it at the server once it
 * listens. Subscription lookups (GET /v1/subscriptions/sub_…) are counted, and held while
 * `holding` is on (the way a slow or unreachable Razorpay behaves). Refund requests are recorded
 * with their idempotency key, and `loseRefundAnswers(n)` lets the next n reach Razorpay while
 * their answers are lost on the way back (Razorpay refunded; the site never heard).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RazorpayProxy {
  /** The value for RAZORPAY_API_URL. */
  apiUrl: string;
  /** The paths of every subscription lookup so far. */
  lookups: string[];
  /** Lookups waiting while holding. */
  held: http.ServerResponse[];
  /** Every refund request: its path and `X-Refund-Idempotency` key. */
  refunds: { path: string; key: string | undefined }[];
  retarget(serverUrl: string): void;
  hold(on: boolean): void;
  loseRefundAnswers(count: number): void;
  /** Refund requests wait this long before they reach Razorpay (a slow Razorpay). */
  delayRefunds(ms: number): void;
  close(): Promise<void>;
}

export async function startRazorpayProxy(): Promise<RazorpayProxy> {
  let target = "";
  let holding = false;
  const lookups: string[] = [];
  const held: http.ServerResponse[] = [];
  const refunds: RazorpayProxy["refunds"] = [];
  let answersToLose = 0;
  let refundDelayMs = 0;
  const server = http.createServer((req, res) => {
    const lookup = req.method === "GET" && /\/v1\/subscriptions\/sub_/.test(req.url ?? "");
    if (lookup) lookups.push(req.url ?? "");
    const refund = req.method === "POST" && /\/v1\/payments\/pay_\w+\/refund$/.test(req.url ?? "");
    const header = req.headers["x-refund-idempotency"];
    if (refund)
      refunds.push({ path: req.url ?? "", key: Array.isArray(header) ? header[0] : header });
    const lose = refund && answersToLose > 0;
    if (lose) answersToLose -= 1;
    if (lookup && holding) {
      held.push(res);
      req.resume();
      return;
    }
    const forward = () => {
      const forwarded = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          if (lose) {
            answer.resume();
            res.writeHead(504).end();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on("error", () => res.writeHead(502).end());
      req.pipe(forwarded);
    };
    if (refund && refundDelayMs > 0) setTimeout(forward, refundDelayMs);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/_sandbox/razorpay`,
    lookups,
    held,
    refunds,
    retarget: (serverUrl) => void (target = serverUrl),
    hold: (on) => void (holding = on),
    loseRefundAnswers: (count) => void (answersToLose = count),
    delayRefunds: (ms) => void (refundDelayMs = ms),
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
