/**
 * A new password, however it was set, ends what the old one (or a stolen device) let in: the
 * desktop devices are signed out, and the owner is told by mail. Called by Better Auth's reset
 * hook (auth.server.ts) and by the security page's change (password.server.ts).
 */
import { db } from "../db";
import { revokeAllDevices } from "../desktop/devices.server";
import { kickJobs } from "../jobs/kick";
import { queueAccountMail } from "./security-mail.server";

/**
 * After a reset from the emailed link or a change on the security page: every desktop device is
 * signed out but `keepDeviceId` (the one whose browser made the change), and the "password
 * changed" mail is queued, in one transaction. Returns how many devices were signed out.
 */
export async function afterPasswordChange(
  userId: string,
  keepDeviceId: string | null,
): Promise<number> {
  const revoked = await db().transaction(async (tx) => {
    const count = await revokeAllDevices(userId, keepDeviceId, tx);
    // One mail per second of changes is plenty; the key also stops a retried call mailing twice.
    const second = Math.floor(Date.now() / 1000);
    await queueAccountMail(tx, { template: "password-changed", userId, dedupe: String(second) });
    return count;
  });
  kickJobs();
  return revoked;
}
