/**
 * A backup holds the rows of the schema it was taken with. Restore builds that schema first (the
 * migrations up to the backup's last), loads the rows, then applies this version's newer
 * migrations as any start would: a backup from an older version restores into a newer one.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { migrationsFolder } from "../db/client";
import type { MigrationState } from "./database.server";

interface JournalEntry {
  when: number;
  tag: string;
}

interface Journal {
  entries: JournalEntry[];
  [key: string]: unknown;
}

export class IncompatibleBackupError extends Error {
  override name = "IncompatibleBackupError";
}

async function readJournal(folder: string): Promise<Journal> {
  return JSON.parse(
    await fs.readFile(path.join(folder, "meta", "_journal.json"), "utf8"),
  ) as Journal;
}

/**
 * A temporary migrations folder holding this version's migrations up to the backup's last one,
 * and a function that removes it. Refuses a backup made by a newer version (a migration this
 * version does not have) or one whose migrations are not this version's first ones.
 */
export async function migrationsUpTo(
  backup: MigrationState,
): Promise<{ folder: string; remove(): Promise<void> }> {
  const source = migrationsFolder();
  const journal = await readJournal(source);
  const entries = await compatibleMigrations(backup, journal);
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "pinout-restore-migrations-"));
  await fs.mkdir(path.join(folder, "meta"));
  await fs.writeFile(
    path.join(folder, "meta", "_journal.json"),
    JSON.stringify({ ...journal, entries }),
  );
  for (const entry of entries)
    await fs.copyFile(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return { folder, remove: () => fs.rm(folder, { recursive: true, force: true }) };
}

/** This version's migrations a backup was made with; throws when it cannot be restored here. */
export async function compatibleMigrations(
  backup: MigrationState,
  journal?: Journal,
): Promise<JournalEntry[]> {
  journal ??= await readJournal(migrationsFolder());
  const entries = journal.entries.filter((entry) => entry.when <= backup.last);
  const newest = journal.entries.at(-1)?.when ?? 0;
  if (backup.last > newest)
    throw new IncompatibleBackupError(
      "the backup was made by a newer version of the site (it has migrations this one lacks): restore it with that version or a later one",
    );
  if (entries.length !== backup.count || entries.at(-1)?.when !== backup.last)
    throw new IncompatibleBackupError(
      `the backup's ${backup.count} migrations are not this version's first ${entries.length}: it was made by another line of versions`,
    );
  return entries;
}
