/**
 * A fake Razorpay for tests: the sandbox router on its own loopback port, recording every request
 * (method, path, Basic auth, JSON body) so tests can assert what the real-provider code sends.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createRazorpaySandbox } from "../../server/razorpay-sandbox";

export const FAKE_KEYS = {
  keyId: "rzp_test_FakeRazorpay0001",
  keySecret: "fake-razorpay-key-secret",
  webhookSecret: "fake-razorpay-webhook-secret",
};

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: unknown;
}

export interface FakeRazorpay {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeRazorpay(
  options: {
    webhookUrl?: () => string | null;
    /** The account's international payments setting (on by default, as the sandbox's). */
    internationalPayments?: boolean;
  } = {},
): Promise<FakeRazorpay> {
  const requests: RecordedRequest[] = [];
  let url = "";
  const sandbox = createRazorpaySandbox({
    ...FAKE_KEYS,
    webhookUrl: options.webhookUrl ?? (() => null),
    publicUrl: () => url,
    internationalPayments: options.internationalPayments,
    retryBaseMs: 20,
  });
  const app = express();
  app.use(express.json({ limit: "64kb" }), (req, _res, next) => {
    requests.push({
      method: req.method,
      path: req.originalUrl,
      authorization: req.get("authorization"),
      idempotencyKey: req.get("x-refund-idempotency"),
      body: req.body as unknown,
    });
    next();
  });
  app.use(sandbox.router);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    async close() {
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
