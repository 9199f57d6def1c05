/** Every kind of background job, once (each defined beside its domain; define.ts). */
import { accountMailJob } from "../account/security-mail.server";
import { digestJob, sweepJob } from "../alerts/jobs.server";
import { passwordResetJob } from "../auth/password-reset.server";
import { rollupJob } from "../analytics/rollup.server";
import { resyncJob } from "../billing/checkout.server";
import { cancelDuplicateJob } from "../billing/duplicate.server";
import { pauseEndJob } from "../billing/pause-end.server";
import { endRefundedJob } from "../billing/refunded-period.server";
import { refundJob } from "../billing/refunds.server";
import { finishSwitchJob, retireHaltedJob } from "../billing/sync-reactions.server";
import { backupJob } from "../backup/jobs.server";
import { trialEndJob } from "../trials/end.server";
import { trimSeatsJob } from "../teams/trim-seats.server";
import { referralRewardJob } from "../referrals/reward.server";
import { trialMailJob } from "../trials/mails.server";
import { billingMailJob } from "../billing/notify.server";
import { processWebhookJob } from "../billing/webhooks.server";
import { sendMessageJob } from "../mail/outbox.server";
import type { JobDefinition } from "./define";
import { pruneJob } from "./maintenance.server";

/**
 * A function, not a constant: domain modules import the job queue too, and a list built while
 * they are still loading would hold undefined entries.
 */
export function jobDefinitions(): readonly JobDefinition[] {
  return [
    processWebhookJob,
    resyncJob,
    finishSwitchJob,
    retireHaltedJob,
    refundJob,
    cancelDuplicateJob,
    pauseEndJob,
    endRefundedJob,
    billingMailJob,
    accountMailJob,
    passwordResetJob,
    sendMessageJob,
    pruneJob,
    rollupJob,
    sweepJob,
    digestJob,
    backupJob,
    trialMailJob,
    trialEndJob,
    referralRewardJob,
    trimSeatsJob,
  ];
}
