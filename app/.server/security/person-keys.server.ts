/**
 * Keys that recognise a person without storing who they are: "one trial per person" (issue 36,
 * point 2) and a coupon's per-customer limit (point 6) both count mailboxes this way.
 * What "one trial per person" remembers, as keyed hashes (HMAC with keys of the key vault): a
 * mailbox's normalised address, and the machine identifier the desktop app sends at sign-in.
 * Neither can be read back; the same input gives the same key while KEYS_ENCRYPTION_SECRET stays.
 */
import { createHmac } from "node:crypto";
import { normalizeMailbox } from "~/lib/mailbox";
import { encryptionKey } from "../security/key-vault.server";

// The key's purpose keeps its first name ("trial-mailboxes"): renaming it would change every
// stored key, and a mailbox that had a trial would look new.
export function mailboxKey(email: string): string {
  return createHmac("sha256", encryptionKey("trial-mailboxes"))
    .update(normalizeMailbox(email))
    .digest("base64url");
}

export function machineKey(machineId: string): string {
  return createHmac("sha256", encryptionKey("machine-ids"))
    .update(machineId.trim())
    .digest("base64url");
}
