/**
 * npm run backup [-- --to <folder>]
 *   Takes a backup of the database, DATA_DIR's secrets and the release files into BACKUP_DIR (or
 *   <folder>), encrypted to BACKUP_AGE_RECIPIENT when set (docs/decisions/0049, README "Backups").
 *   With the embedded database, the running site holds it: use "Back up now" in /admin/backups
 *   or the schedule (BACKUP_INTERVAL_HOURS), or stop the site first.
 * npm run backup -- --new-key <file>
 *   Makes an age key pair: writes the private key to <file> (keep it off this machine) and prints
 *   the public key to set as BACKUP_AGE_RECIPIENT.
 * Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { runBackup } from "~/.server/backup/backup-runs.server";
import { signingKeyForBackup } from "~/.server/backup/signing.server";
import { DatabaseLockedError } from "~/.server/db/lock";
import { env } from "~/.server/env";
import { formatBytes } from "~/lib/format";
import { runMain } from "./lib/run-main";
import { withDatabase } from "./lib/with-database";

async function main(): Promise<number> {
  let values: { to?: string; "new-key"?: string };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { to: { type: "string" }, "new-key": { type: "string" } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: npm run backup [-- --to <folder>]`);
    return 2;
  }
  if (values["new-key"]) {
    const identity = await generateIdentity();
    await fs.writeFile(values["new-key"], `${identity}\n`, { mode: 0o600, flag: "wx" });
    console.log(`private key written to ${values["new-key"]}: keep it off this machine`);
    console.log(`BACKUP_AGE_RECIPIENT=${await identityToRecipient(identity)}`);
    return 0;
  }
  const dir = values.to ?? env().BACKUP_DIR;
  if (!dir) {
    console.error(
      "error: set BACKUP_DIR (or give --to <folder>): there is nowhere to write the backup",
    );
    return 2;
  }
  try {
    const run = await withDatabase(() => runBackup("command", { dir }));
    console.log(
      `backup written: ${dir}/${run.fileName} (${formatBytes(run.bytes ?? 0)}, ${run.rows} rows, ${run.files} files${run.encrypted ? ", encrypted" : ""})`,
    );
    if (run.error) console.warn(`warning: ${run.error}`);
    const { source } = signingKeyForBackup(env());
    console.log(
      source === "DATA_DIR/backup-signing-secret"
        ? `signed with ${env().DATA_DIR}/backup-signing-secret, which no backup holds: keep a copy off this machine, restoring elsewhere needs it`
        : `signed with a key derived from ${source}: restoring needs the same value`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      console.error(
        `error: ${error.message}.\nThe running site holds the embedded database: take the backup with "Back up now" in /admin/backups or on its schedule (BACKUP_INTERVAL_HOURS), or stop the site and run this again.`,
      );
      return 1;
    }
    throw error;
  }
}

runMain(main);
