/**
 * Backup and restore at the module level, on both engines (docs/decisions/0049): every table and
 * sequence comes back identical, encryption needs the right key, a damaged or cut-short file
 * restores nothing, a live target is refused, and the folder keeps the newest backups only.
 * tests/integration/backup.test.ts restores a whole running site.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractEngines } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { type Database, openDatabase } from "../db/client";
import { localStorage } from "../releases/storage/local.server";
import {
  BACKUP_MAX_AGE_DAYS,
  createBackup,
  listBackups,
  pruneFolder,
  STALE_PARTIAL_MS,
} from "./create-backup.server";
import { isEmptyDatabase, orderByDependencies } from "./database.server";
import {
  BackupFormatError,
  BLANKED_IN_BACKUPS,
  DATA_DIR_FILES,
  SIGNING_SECRET_FILE,
  backupFileName,
  isBackupFileName,
  KEPT_IN_BACKUPS,
  LEFT_OUT_OF_BACKUPS,
  parseLine,
  rowsLine,
} from "./format";
import {
  BackupSignatureError,
  RestoreRefusedError,
  restoreBackup,
  verifyBackup,
} from "./restore-backup.server";
import {
  type BackupSigningKey,
  LineSigner,
  signingKeyForBackup,
  signingKeysForRestore,
} from "./signing.server";

const temp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `pinout-${prefix}-`));

/** The operator's key, as BACKUP_SIGNING_SECRET gives it; restore here has it. */
const keyFrom = (secret: string) =>
  signingKeyForBackup({ BACKUP_SIGNING_SECRET: secret, DATA_DIR: "/nonexistent" });
const SIGNING_KEY = keyFrom("unit-test-backup-signing-secret-0123456789");
const verify = (file: string, identity?: string) =>
  verifyBackup(file, { identity, signingKeys: [SIGNING_KEY] });

/** A backup's lines, without the trailing newline. */
const linesOf = (file: string) =>
  gunzipSync(fs.readFileSync(file)).toString().trimEnd().split("\n");

/** Writes `lines` as a backup signed with `key`: what only the holder of the key can do. */
function writeSigned(file: string, lines: readonly string[], key: BackupSigningKey): void {
  const signer = new LineSigner(key);
  for (const line of lines) signer.add(line);
  const signature = JSON.stringify({ kind: "signature", mac: signer.digest() });
  fs.writeFileSync(file, gzipSync([...lines, signature].join("\n") + "\n"));
}

async function rows<T>(database: Database, statement: string): Promise<T[]> {
  return ((await database.execute(sql.raw(statement))) as unknown as { rows: T[] }).rows;
}

/** Every table's rows and every sequence, as one comparable value. */
async function fingerprint(database: Database): Promise<Record<string, string>> {
  const relations = await rows<{ name: string; kind: string }>(
    database,
    `select c.relname as name, c.relkind::text as kind from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'S') order by 1`,
  );
  const print: Record<string, string> = {};
  for (const { name, kind } of relations) {
    const [row] = await rows<{ digest: string | null }>(
      database,
      kind === "S"
        ? `select last_value::text || ':' || is_called::text as digest from "${name}"`
        : `select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as digest
           from (select row_to_json(t.*) as r from "${name}" t) x`,
    );
    print[name] = row?.digest ?? "";
  }
  return print;
}

describe.each(contractEngines("backup and restore"))("backup and restore on $name", (engine) => {
  let source: TestDatabase;
  let releasesRoot: string;
  const releaseBytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));

  beforeAll(async () => {
    source = await openTestDatabase({ engine });
    // Rows of the awkward kinds: identity and bigserial columns, jsonb, timestamps, bytes, text
    // that needs quoting, a numeric-looking string, and a release file in storage.
    await source.db.execute(
      sql.raw(`insert into "user" (id, name, email, email_verified, created_at, updated_at)
               values ('u1', 'Asha "A" O''Neil', 'asha@example.com', true, now(), now()),
                      ('u2', 'Ravi ₹', 'ravi@example.com', false, '2026-01-31T18:30:00Z', now())`),
    );
    await source.db.execute(
      sql.raw(`insert into support_tickets (user_id, category, subject) values
               ('u1', 'billing', 'first'), ('u2', 'refund', 'second\nline')`),
    );
    await source.db.execute(
      sql.raw(`insert into audit_log (actor_email, action, before, after) values
               ('boss@example.com', 'grant', '{"plan":"pro","n":12345678901234567}', null)`),
    );
    releasesRoot = temp("backup-releases");
    const storage = localStorage(releasesRoot);
    await storage.put("1.0.0/Pinout-1.0.0.dmg", Readable.from([releaseBytes]), {
      maxBytes: 10_000_000,
      contentType: "application/octet-stream",
    });
    const [release] = await rows<{ id: string }>(
      source.db,
      `insert into releases (version) values ('1.0.0') returning id`,
    );
    await source.db.execute(
      sql.raw(`insert into release_assets (release_id, platform, file_name, size_bytes, sha256, storage_key)
               values ('${release!.id}', 'mac', 'Pinout-1.0.0.dmg', ${releaseBytes.length},
                       '${createHash("sha256").update(releaseBytes).digest("hex")}', '1.0.0/Pinout-1.0.0.dmg')`),
    );
    fs.writeFileSync(path.join(source.dataDir, "auth-secret"), "the-auth-secret");
  });
  afterAll(async () => {
    await source?.close();
  });

  const backup = (dir: string, recipient?: string, now?: Date) =>
    createBackup({
      handle: source.handle,
      dataDir: source.dataDir,
      releases: localStorage(releasesRoot),
      dir,
      recipient,
      signingKey: SIGNING_KEY,
      keep: 14,
      now,
    });

  /** An empty target: a new DATA_DIR, and on PostgreSQL a database with nothing in it. */
  const emptyTarget = async () => ({
    dataDir: temp("restore-target"),
    databaseUrl: await engine.emptyDatabaseUrl(),
  });

  const restoreInto = (
    target: { dataDir: string; databaseUrl?: string },
    file: string,
    identity?: string,
  ) =>
    restoreBackup({
      file,
      identity,
      signingKeys: [SIGNING_KEY],
      ...target,
      releases: localStorage(path.join(target.dataDir, "releases")),
    });

  it("restores every table, sequence, secret and release file as they were", async () => {
    const dir = temp("backups");
    const result = await backup(dir);
    expect(result).toMatchObject({ encrypted: false, files: 2, missingFiles: [] });
    expect(isBackupFileName(result.fileName)).toBe(true);
    expect(fs.statSync(path.join(dir, result.fileName)).mode & 0o777).toBe(0o600);

    const target = await emptyTarget();
    const summary = await restoreInto(target, path.join(dir, result.fileName));
    expect(summary.rows).toBe(result.rows);
    const restored = await openDatabase(target);
    try {
      expect(await fingerprint(restored.db)).toEqual(await fingerprint(source.db));
      // Identity columns continue after the restored values, as they would have in the source.
      const [next] = await rows<{ number: number }>(
        restored.db,
        `insert into support_tickets (user_id, category, subject) values ('u1', 'other', 'after') returning number`,
      );
      expect(next!.number).toBe(1003);
    } finally {
      await restored.close();
    }
    expect(fs.readFileSync(path.join(target.dataDir, "auth-secret"), "utf8")).toBe(
      "the-auth-secret",
    );
    expect(
      fs.readFileSync(path.join(target.dataDir, "releases", "1.0.0", "Pinout-1.0.0.dmg")),
    ).toEqual(releaseBytes);
  });

  it("finding 13: a backup holds no session, sign-in link or one-time token, nor Google's tokens", async () => {
    await source.db.execute(
      sql.raw(`insert into session (id, expires_at, token, created_at, updated_at, user_id)
               values ('s1', now() + interval '7 days', 'live-session-token-of-u1', now(), now(), 'u1')`),
    );
    await source.db.execute(
      sql.raw(`insert into verification (id, identifier, value, expires_at)
               values ('v1', 'reset-password:live-reset-token', 'u1', now() + interval '1 hour')`),
    );
    await source.db.execute(
      sql.raw(`insert into one_time_tokens (token_hash, purpose, user_id, expires_at)
               values ('${"ab".repeat(32)}', 'desktop_handoff', 'u1', now() + interval '5 minutes')`),
    );
    await source.db.execute(
      sql.raw(`insert into account (id, account_id, provider_id, user_id, access_token, refresh_token, id_token, password, created_at, updated_at)
               values ('a1', 'g-1', 'google', 'u1', 'live-google-access', 'live-google-refresh', 'live-google-id', null, now(), now()),
                      ('a2', 'u2', 'credential', 'u2', null, null, null, 'scrypt-hash-of-u2', now(), now())`),
    );
    try {
      const dir = temp("backups");
      const file = path.join(dir, (await backup(dir)).fileName);
      const text = gunzipSync(fs.readFileSync(file)).toString();
      for (const secret of [
        "live-session-token-of-u1",
        "live-reset-token",
        "ab".repeat(32),
        "live-google-access",
        "live-google-refresh",
        "live-google-id",
      ])
        expect(text.includes(secret), secret).toBe(false);
      const tables = text
        .split("\n")
        .filter((line) => line.startsWith('{"kind":"rows"'))
        .map((line) => (parseLine(line) as { table: string }).table);
      for (const table of Object.keys(LEFT_OUT_OF_BACKUPS)) expect(tables).not.toContain(table);

      // Restored, people sign in again; their passwords and sign-in methods are all there.
      const target = await emptyTarget();
      await restoreInto(target, file);
      const restored = await openDatabase(target);
      try {
        expect(await rows(restored.db, "select id from session")).toEqual([]);
        expect(await rows(restored.db, "select id from verification")).toEqual([]);
        expect(
          await rows(
            restored.db,
            "select id, access_token, refresh_token, id_token, password from account order by id",
          ),
        ).toEqual([
          { id: "a1", access_token: null, refresh_token: null, id_token: null, password: null },
          {
            id: "a2",
            access_token: null,
            refresh_token: null,
            id_token: null,
            password: "scrypt-hash-of-u2",
          },
        ]);
      } finally {
        await restored.close();
      }
    } finally {
      for (const table of ["session", "verification", "one_time_tokens", "account"])
        await source.db.execute(sql.raw(`delete from ${table}`));
    }
  });

  it("finding 13: every column that could hold a live bearer secret is left out, blanked, hashed or named", async () => {
    const columns = await rows<{ table: string; column: string }>(
      source.db,
      `select table_name as table, column_name as column from information_schema.columns
       where table_schema = 'public' and column_name ~ '(token|secret|password|^code$|_codes$)'
       order by 1, 2`,
    );
    const unaccounted = columns.filter(
      ({ table, column }) =>
        !(table in LEFT_OUT_OF_BACKUPS) &&
        !(BLANKED_IN_BACKUPS[table] ?? []).includes(column) &&
        !(`${table}.${column}` in KEPT_IN_BACKUPS) &&
        // A hash or an expiry is no bearer secret.
        !/_hash$|_expires_at$|_at$/.test(column),
    );
    expect(unaccounted.map(({ table, column }) => `${table}.${column}`)).toEqual([]);
  });

  it("refuses a target that holds data, and leaves it as it was", async () => {
    const dir = temp("backups");
    const file = path.join(dir, (await backup(dir)).fileName);
    const before = await fingerprint(source.db);
    if (engine.name === "pglite") {
      await expect(restoreInto({ dataDir: source.dataDir }, file)).rejects.toThrow(
        RestoreRefusedError,
      );
    } else {
      const live = {
        dataDir: temp("restore-target"),
        databaseUrl: await engine.freshDatabaseUrl(),
      };
      await expect(restoreInto(live, file)).rejects.toThrow(/already holds tables/);
      const handle = await openDatabase(live);
      try {
        expect(await isEmptyDatabase(handle.db)).toBe(false);
      } finally {
        await handle.close();
      }
    }
    const secretDir = temp("restore-target");
    fs.writeFileSync(path.join(secretDir, "keys-encryption-secret"), "x");
    await expect(restoreInto({ dataDir: secretDir }, file)).rejects.toThrow(
      /already holds keys-encryption-secret/,
    );
    expect(await fingerprint(source.db)).toEqual(before);
  });

  /** The target holds nothing after a failed restore: no folder content, no table. */
  const expectEmpty = async (target: { dataDir: string; databaseUrl?: string }) => {
    expect(fs.readdirSync(target.dataDir).filter((name) => name !== "db.lock")).toEqual([]);
    if (!target.databaseUrl) return;
    const handle = await openDatabase(target);
    try {
      expect(await isEmptyDatabase(handle.db)).toBe(true);
    } finally {
      await handle.close();
    }
  };

  it("refuses a file cut short before making anything, and says why", async () => {
    const dir = temp("backups");
    const file = path.join(dir, (await backup(dir)).fileName);
    const whole = fs.readFileSync(file);
    const cut = path.join(dir, "cut.backup.gz");
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.8)));
    const target = await emptyTarget();
    await expect(verify(cut)).rejects.toThrow();
    await expect(restoreInto(target, cut)).rejects.toThrow();
    await expectEmpty(target);
    // A file that decompresses cleanly but stops before its end record (copied in part).
    const lines = linesOf(file);
    expect(JSON.parse(lines.at(-2)!)).toMatchObject({ kind: "end" });
    const endless = path.join(dir, "no-end.backup.gz");
    fs.writeFileSync(endless, gzipSync(lines.slice(0, -2).join("\n") + "\n"));
    await expect(restoreInto(target, endless)).rejects.toThrow(/the backup is incomplete/);
    // A record dropped from the middle: the end record's counts catch it.
    const gap = path.join(dir, "gap.backup.gz");
    const rowsAt = lines.findIndex((line) => line.startsWith('{"kind":"rows"'));
    fs.writeFileSync(gap, gzipSync(lines.filter((_, n) => n !== rowsAt).join("\n") + "\n"));
    await expect(restoreInto(target, gap)).rejects.toThrow(/do not match its own counts/);
    await expectEmpty(target);
    expect((await verify(file)).rows).toBeGreaterThan(0);
  });

  it("removes what it had made when a file that reads whole fails to load", async () => {
    const dir = temp("backups");
    const file = path.join(dir, (await backup(dir)).fileName);
    const lines = linesOf(file).slice(0, -1);
    const end = JSON.parse(lines.pop()!) as { tables: Record<string, number> };
    end.tables.no_such_table = 1;
    lines.push(rowsLine("no_such_table", ['{"id":1}']), JSON.stringify(end));
    const odd = path.join(dir, "odd.backup.gz");
    // Signed with the site's own key: a file only the site could have made, that fails to load.
    writeSigned(odd, lines, SIGNING_KEY);
    await verify(odd);
    const target = await emptyTarget();
    await expect(restoreInto(target, odd)).rejects.toThrow(/a table this database lacks/);
    await expectEmpty(target);
  });

  it("finding 14: refuses a backup edited after it was written (a customer made admin), and restores nothing", async () => {
    const dir = temp("backups");
    const file = path.join(dir, (await backup(dir)).fileName);
    const lines = linesOf(file);
    const userLine = lines.findIndex((line) => line.startsWith('{"kind":"rows","table":"user"'));
    expect(lines[userLine]).toContain('"role":null');
    const forged = path.join(dir, "forged.backup.gz");
    const edited = lines.map((line, n) =>
      n === userLine ? line.replace('"role":null', '"role":"admin"') : line,
    );
    fs.writeFileSync(forged, gzipSync(edited.join("\n") + "\n"));
    await expect(verify(forged)).rejects.toThrow(BackupSignatureError);
    await expect(verify(forged)).rejects.toThrow(/signature does not match its contents/);
    const target = await emptyTarget();
    await expect(restoreInto(target, forged)).rejects.toThrow(/signature does not match/);
    await expectEmpty(target);
  });

  it("finding 14: refuses an unsigned file, one signed with another key, and one from before signing", async () => {
    const dir = temp("backups");
    const file = path.join(dir, (await backup(dir)).fileName);
    const lines = linesOf(file);
    const unsigned = path.join(dir, "unsigned.backup.gz");
    fs.writeFileSync(unsigned, gzipSync(lines.slice(0, -1).join("\n") + "\n"));
    await expect(verify(unsigned)).rejects.toThrow(/the backup is not signed/);

    // Signed by someone else, naming the site's key: the MAC does not match.
    const other = keyFrom("an-attackers-own-signing-secret-0123456789");
    const resigned = path.join(dir, "resigned.backup.gz");
    writeSigned(resigned, lines.slice(0, -1), other);
    await expect(verify(resigned)).rejects.toThrow(/signature does not match/);

    // Naming their own key: not one this machine has, and the message says which is missing.
    const header = JSON.parse(lines[0]!) as { signing: { keyId: string } };
    header.signing.keyId = other.id;
    const theirs = path.join(dir, "theirs.backup.gz");
    writeSigned(theirs, [JSON.stringify(header), ...lines.slice(1, -1)], other);
    await expect(verify(theirs)).rejects.toThrow(
      `the backup was signed with a key from BACKUP_SIGNING_SECRET (key id ${other.id}) that is not here`,
    );

    // A file of the format before signing: nothing proves it unaltered.
    const old = JSON.parse(lines[0]!) as Record<string, unknown>;
    old.version = 1;
    delete old.signing;
    const v1 = path.join(dir, "v1.backup.gz");
    fs.writeFileSync(v1, gzipSync([JSON.stringify(old), ...lines.slice(1, -1)].join("\n") + "\n"));
    await expect(verify(v1)).rejects.toThrow(/made before backups were signed/);

    const target = await emptyTarget();
    for (const refused of [unsigned, resigned, theirs, v1])
      await expect(restoreInto(target, refused)).rejects.toThrow();
    await expectEmpty(target);
  });

  it("encrypts to an age key, and restores only with its private key", async () => {
    const identity = await generateIdentity();
    const dir = temp("backups");
    const result = await backup(dir, await identityToRecipient(identity));
    expect(result.fileName).toMatch(/\.backup\.gz\.age$/);
    const file = path.join(dir, result.fileName);
    expect(fs.readFileSync(file).subarray(0, 21).toString()).toBe("age-encryption.org/v1");
    expect(fs.readFileSync(file).includes(Buffer.from("asha@example.com"))).toBe(false);

    await expect(restoreInto(await emptyTarget(), file)).rejects.toThrow(/encrypted/);
    await expect(
      restoreInto(await emptyTarget(), file, await generateIdentity()),
    ).rejects.toThrow();
    const target = await emptyTarget();
    expect((await restoreInto(target, file, identity)).rows).toBe(result.rows);
  });
});

describe("the backup folder", () => {
  it("keeps no backup past the privacy policy's 30 days, but always the newest", async () => {
    const dir = temp("backups");
    const now = Date.UTC(2026, 10, 28, 12);
    const day = 86_400_000;
    const at = (days: number) => backupFileName(new Date(now - days * day), false);
    for (const days of [31, 29, 1]) fs.writeFileSync(path.join(dir, at(days)), "x");
    expect(await pruneFolder(dir, 14, undefined, now)).toEqual([at(31)]);
    expect(BACKUP_MAX_AGE_DAYS).toBe(30);
    // The policy's words, so that changing one without the other fails here.
    expect(fs.readFileSync("content/legal/privacy.md", "utf8")).toContain(
      "remove it from backups within a further 30 days",
    );
    // A site whose only backups are old keeps the one it has just written.
    const lone = temp("backups");
    fs.writeFileSync(path.join(lone, at(40)), "x");
    expect(await pruneFolder(lone, 14, at(40), now)).toEqual([]);
  });

  it("keeps the newest backups and removes partial files left by cut-short runs", async () => {
    const dir = temp("backups");
    // Three, two and one days old, oldest first.
    const names = [3, 2, 1].map((days) =>
      backupFileName(new Date(Date.now() - days * 86_400_000), false),
    );
    for (const name of names) fs.writeFileSync(path.join(dir, name), "x");
    const stale = path.join(dir, `.${names[0]}.abc.partial`);
    const fresh = path.join(dir, `.${names[2]}.def.partial`);
    fs.writeFileSync(stale, "x");
    fs.writeFileSync(fresh, "x");
    const old = (Date.now() - STALE_PARTIAL_MS - 1000) / 1000;
    fs.utimesSync(stale, old, old);

    const removed = await pruneFolder(dir, 2);
    expect(removed.sort()).toEqual([names[0], path.basename(stale)].sort());
    expect((await listBackups(dir)).map((file) => file.name)).toEqual([names[2], names[1]]);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});

describe("the file format", () => {
  it("keeps rows as PostgreSQL wrote them: big numbers are never rounded", () => {
    const line = rowsLine("audit_log", ['{"id":1,"n":12345678901234567}']);
    expect(parseLine(line)).toEqual({
      kind: "rows",
      table: "audit_log",
      count: 1,
      rowsJson: '[{"id":1,"n":12345678901234567}]',
    });
  });

  it("refuses lines a backup does not hold", () => {
    expect(() => parseLine("not json")).toThrow(BackupFormatError);
    expect(() => parseLine('{"kind":"drop table"}')).toThrow(BackupFormatError);
    expect(() => parseLine('{"kind":"rows","table":"x","count":1,"rows":}')).toThrow(
      BackupFormatError,
    );
  });

  it("names files by time, so they sort oldest to newest", () => {
    expect(backupFileName(new Date("2026-11-28T20:30:05.123Z"), true)).toBe(
      "pinout-20261128T203005.123Z.backup.gz.age",
    );
    expect(isBackupFileName("pinout-20261128T203005.123Z.backup.gz")).toBe(true);
    expect(isBackupFileName(".pinout-20261128T203005.123Z.backup.gz.1.partial")).toBe(false);
  });

  it("loads parents before the tables that reference them", () => {
    expect(
      orderByDependencies(
        ["invoices", "payments", "user"],
        [
          { child: "invoices", parent: "payments" },
          { child: "payments", parent: "user" },
          { child: "user", parent: "user" },
        ],
      ),
    ).toEqual(["user", "payments", "invoices"]);
    expect(() =>
      orderByDependencies(
        ["a", "b"],
        [
          { child: "a", parent: "b" },
          { child: "b", parent: "a" },
        ],
      ),
    ).toThrow(/cycle/);
  });
});

describe("the backup signing key", () => {
  it("finding 14: on the embedded default it is generated into DATA_DIR, a file no backup holds", () => {
    const dataDir = temp("signing");
    // The generated auth secret is in every backup: never the signing key's source.
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "generated-auth-secret");
    const key = signingKeyForBackup({ DATA_DIR: dataDir });
    expect(key.source).toBe(`DATA_DIR/${SIGNING_SECRET_FILE}`);
    expect(fs.statSync(path.join(dataDir, SIGNING_SECRET_FILE)).mode & 0o777).toBe(0o600);
    expect(DATA_DIR_FILES as readonly string[]).not.toContain(SIGNING_SECRET_FILE);
    expect(signingKeyForBackup({ DATA_DIR: dataDir }).id).toBe(key.id);
    // Restore finds it in DATA_DIR, or from BACKUP_SIGNING_SECRET set to its content.
    expect(signingKeysForRestore({ DATA_DIR: dataDir }).map((k) => k.id)).toEqual([key.id]);
    const content = fs.readFileSync(path.join(dataDir, SIGNING_SECRET_FILE), "utf8");
    expect(keyFrom(content).id).toBe(key.id);
    // Restore never makes one up: a key it generated could not have signed anything.
    const empty = temp("signing");
    expect(signingKeysForRestore({ DATA_DIR: empty })).toEqual([]);
    expect(fs.existsSync(path.join(empty, SIGNING_SECRET_FILE))).toBe(false);
  });

  it("finding 14: BACKUP_SIGNING_SECRET first, then BETTER_AUTH_SECRET from the environment", () => {
    const dataDir = temp("signing");
    const auth = "an-environment-auth-secret-0123456789abcdef";
    const own = "an-own-backup-signing-secret-0123456789";
    expect(signingKeyForBackup({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: auth }).source).toBe(
      "BETTER_AUTH_SECRET",
    );
    const key = signingKeyForBackup({
      DATA_DIR: dataDir,
      BETTER_AUTH_SECRET: auth,
      BACKUP_SIGNING_SECRET: own,
    });
    expect(key).toMatchObject({ source: "BACKUP_SIGNING_SECRET", id: keyFrom(own).id });
    expect(fs.existsSync(path.join(dataDir, SIGNING_SECRET_FILE))).toBe(false);
    // Derived, not the secret itself: the MAC key says nothing about the auth secret.
    expect(key.key.toString("utf8")).not.toContain(own);
  });
});
