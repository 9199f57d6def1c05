/** Every kind of durable job and the function that does it. */
import { ACCOUNT_MAIL_JOB, sendAccountMail } from "../account/security-mail.server";
import { RESYNC_JOB } from "../billing/checkout.server";
import { db } from "../db";
import {
  FINISH_SWITCH_JOB,
  finishSwitch,
  RETIRE_HALTED_JOB,
  retireHalted,
} from "../billing/manage.server";
import { BILLING_MAIL_JOB, sendBillingMail } from "../billing/notify.server";
import { resyncFromProvider } from "../billing/resync.server";
import { PROCESS_WEBHOOK_JOB, processWebhookEvent } from "../billing/webhooks.server";
import { PRUNE_JOB, runPrune } from "./maintenance.server";
import { type JobHandler, PermanentJobError } from "./worker.server";

function text(payload: Record<string, unknown>, key: string): string {
  const value = payload[key];
  if (typeof value !== "string" || value === "")
    throw new PermanentJobError(`job payload lacks ${key}`);
  return value;
}

export const jobHandlers: Readonly<Record<string, JobHandler>> = {
  [PROCESS_WEBHOOK_JOB]: async (payload) => {
    await processWebhookEvent(text(payload, "eventId"));
  },
  [RESYNC_JOB]: async (payload) => {
    await resyncFromProvider(text(payload, "providerSubscriptionId"));
  },
  [BILLING_MAIL_JOB]: (payload) => sendBillingMail(payload),
  [ACCOUNT_MAIL_JOB]: (payload) => sendAccountMail(payload),
  [FINISH_SWITCH_JOB]: (payload) => finishSwitch(payload),
  [PRUNE_JOB]: () => runPrune(db()),
  [RETIRE_HALTED_JOB]: async (payload) => {
    await retireHalted(payload);
  },
};
