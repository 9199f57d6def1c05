/**
 * Issue 35, point 1: a running site with customers, a Pro subscription, invoices, a credit note, a
 * published release and a rotated signing key is backed up while requests run ("Back up now" in
 * /admin/backups), restored with `npm run restore` into an empty folder or database, and started:
 * the same people sign in, the invoice PDFs are the same bytes, the next invoice number follows
 * the last, licences verify with the restored keys, and the release downloads the same file. A
 * backup cut by `kill -9` leaves no file that looks complete. (Restore's refusal of a target with
 * data, encryption and damaged files: app/.server/backup/backup.test.ts, on both engines.)
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBackupFileName, isPartialName } from "~/.server/backup/format";
import { restoreBackup } from "~/.server/backup/restore-backup.server";
import { signingKeysForRestore } from "~/.server/backup/signing.server";
import { localStorage } from "~/.server/releases/storage/local.server";
import {
  cookiesFrom,
  authPost,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { buyThroughSandbox, requestSelfRefund } from "../support/billing";
import { pageText, textOf } from "../support/pages";
import { signInDevice } from "../support/desktop";
import { childProcesses } from "../support/child-processes";
import { runScript } from "../support/cli";
import { contractEngines } from "../support/engines";
import { readOutbox } from "../support/mail";
import {
  type RunningTestServer,
  startedDataDir,
  startServer,
  tempDataDir,
} from "../support/server";

const PASSWORD = "backup-test-password-1";
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe.each(contractEngines("backup and restore"))(
  "a whole site backed up and restored on $name",
  (engine) => {
    const dataDir = startedDataDir(engine);
    const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-backups-"));
    let databaseUrl: string | undefined;
    let server: RunningTestServer;
    let restored: RunningTestServer | undefined;
    let boss = "";
    const release = {
      version: "7.1.0",
      name: "Pinout-7.1.0.dmg",
      bytes: Buffer.from(Array.from({ length: 2_000_000 }, (_, i) => (i * 31 + (i >> 9)) % 256)),
    };
    /** What the site held when it was backed up, to compare the restored one with. */
    const before = {
      invoices: [] as { number: string; pdf: string }[],
      lastSequence: 0,
      kids: [] as string[],
      licences: [] as string[],
    };

    // A weekly schedule: its first slot is days away unless the test moves it.
    const env = () => ({
      DATABASE_URL: databaseUrl,
      BACKUP_DIR: backupDir,
      BACKUP_INTERVAL_HOURS: "168",
      AUTH_RATE_LIMIT: "100",
    });

    beforeAll(async () => {
      databaseUrl = await engine.freshDatabaseUrl();
      ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, { dataDir, env: env() }));
    });
    afterAll(async () => {
      await server?.stop();
      await restored?.stop();
    });

    /** Invoice and credit note numbers with the SHA-256 of their stored PDFs, oldest first. */
    const invoicesOf = async (site: RunningTestServer) =>
      (
        await site.sql(
          `select number, encode(sha256(pdf), 'hex') as pdf, series, sequence from invoices order by series, sequence`,
        )
      ).map((row) => ({
        number: String(row.number),
        pdf: String(row.pdf),
        invoice: String(row.series).startsWith("invoice:"),
        sequence: Number(row.sequence),
      }));

    /** Signs in with the password; the session's cookies. */
    const signIn = async (site: RunningTestServer, email: string) =>
      cookiesFrom(await authPost(site, "/sign-in/email", { email, password: PASSWORD }));

    const jwks = async (site: RunningTestServer) =>
      (await (await fetch(`${site.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;

    const licenceOf = async (site: RunningTestServer, access: string) =>
      (
        (await (
          await fetch(`${site.url}/api/desktop/me`, {
            headers: { authorization: `Bearer ${access}` },
          })
        ).json()) as { license: string }
      ).license;

    it("builds a site worth restoring: Pro, a refund's credit note, a release, a rotated key", async () => {
      // A customer on Pro with a device, and one who bought and took the refund (a credit note).
      const pro = await signUpVerified(server, {
        name: "Asha",
        email: "asha@example.com",
        password: PASSWORD,
      });
      await buyThroughSandbox(server, pro);
      const refunded = await signUpVerified(server, {
        name: "Ravi",
        email: "ravi@example.com",
        password: PASSWORD,
      });
      await buyThroughSandbox(server, refunded);
      await server.jobsSettled();
      const refund = await requestSelfRefund(server, refunded);
      expect(refund.status).toBe(200);
      await server.jobsSettled();
      expect(await pageText(server, "/invoices", refunded)).toMatch(/Credit note/);
      const access = await signInDevice(server, pro, "Asha's Mac");
      before.licences.push(await licenceOf(server, access));

      // A release published through the admin API, with its file stored by the site.
      const created = await postForm(server, "/admin/releases", boss, {
        intent: "token",
        name: "backup",
      });
      const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
      const api = (pathname: string, init: RequestInit) =>
        fetch(server.url + pathname, {
          ...init,
          headers: { Authorization: `Bearer ${token}`, ...init.headers },
        });
      const draft = await api("/api/admin/releases", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version: release.version }),
      });
      const { id } = (await draft.json()) as { id: string };
      const put = await api(`/api/admin/releases/${id}/files/${release.name}`, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: release.bytes,
      });
      expect(put.status).toBe(201);
      const published = await api(`/api/admin/releases/${id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action: "publish" }),
      });
      expect(published.status).toBe(200);

      // The licence key rotated (the embedded database belongs to one process: stopped meanwhile).
      await server.stop();
      const rotated = await runScript("scripts/keys-rotate.ts", [], {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
      });
      expect(rotated.output).toContain("new licence signing key");
      server = await startServer({ dataDir, env: { ...env(), ADMIN_EMAILS: "boss@example.com" } });
      before.licences.push(await licenceOf(server, access));
      const kids = before.licences.map((licence) => decodeProtectedHeader(licence).kid);
      expect(new Set(kids).size).toBe(2);
    });

    it("backs up while requests run, with the run on /admin/backups", async () => {
      let load = true;
      const statuses: number[] = [];
      const traffic = (async () => {
        while (load) {
          for (const pathname of ["/", "/pricing", "/admin"])
            statuses.push((await getWithCookies(server, pathname, boss)).status);
        }
      })();
      try {
        const asked = await postForm(server, "/admin/backups", boss, { intent: "backup-now" });
        expect(textOf(await asked.text())).toContain("A backup is being taken in the background");
        await server.jobsSettled();
      } finally {
        load = false;
        await traffic;
      }
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);

      const page = await pageText(server, "/admin/backups", boss);
      expect(page).toMatch(/The last backup succeeded on .* \(under an hour ago\)\./);
      expect(page).toMatch(/Back up now Succeeded pinout-\d{8}T\d{6}\.\d{3}Z\.backup\.gz/);
      expect(await pageText(server, "/admin", boss)).toMatch(/The last backup succeeded on/);
      expect(fs.readdirSync(backupDir).filter(isBackupFileName)).toHaveLength(1);

      // The schedule: one job for the next weekly slot; run now, it takes a backup and queues the
      // slot after its own.
      const scheduled = async () =>
        (
          await server.sql(
            `select run_at from jobs where kind = 'backup.run' and payload->>'trigger' = 'schedule' and completed_at is null order by run_at`,
          )
        ).map((row) => new Date(String(row.run_at)).getTime());
      const [slot] = await scheduled();
      const WEEK = 168 * 3_600_000;
      expect(slot! % WEEK).toBe(0);
      expect(slot! - Date.now()).toBeLessThanOrEqual(WEEK);
      await server.sql(
        `update jobs set run_at = now() where kind = 'backup.run' and payload->>'trigger' = 'schedule'`,
      );
      await server.jobsSettled();
      expect(await scheduled()).toEqual([slot! + WEEK]);
      expect(await pageText(server, "/admin/backups", boss)).toMatch(
        /Schedule Succeeded pinout-\d{8}T\d{6}\.\d{3}Z\.backup\.gz/,
      );
      expect(fs.readdirSync(backupDir).filter(isBackupFileName)).toHaveLength(2);

      const invoices = await invoicesOf(server);
      expect(invoices.length).toBeGreaterThanOrEqual(3);
      before.invoices = invoices.map(({ number, pdf }) => ({ number, pdf }));
      expect(invoices.filter((row) => !row.invoice)).toHaveLength(1);
      before.lastSequence = Math.max(
        ...invoices.filter((row) => row.invoice).map((row) => row.sequence),
      );
      before.kids = (await jwks(server)).keys.map((key) => String(key.kid));
    });

    it("a failed backup is on /admin and /admin/backups, and mailed to the admins who chose it", async () => {
      const chose = await postForm(server, "/admin/settings", boss, {
        intent: "save-alerts",
        delivery: "now",
        "kind-backup-failed": "on",
      });
      expect(chose.status).toBe(200);
      // The folder is not one for a moment (a disk unmounted): the backup cannot be written.
      const aside = `${backupDir}.aside`;
      fs.renameSync(backupDir, aside);
      fs.writeFileSync(backupDir, "not a folder");
      try {
        await postForm(server, "/admin/backups", boss, { intent: "backup-now" });
        await server.jobsSettled();
      } finally {
        fs.rmSync(backupDir);
        fs.renameSync(aside, backupDir);
      }
      const page = await pageText(server, "/admin/backups", boss);
      expect(page).toMatch(/The last backup succeeded on .*; the attempt after it failed\./);
      expect(page).toMatch(/Back up now Failed — — \S*(EEXIST|ENOTDIR)/);
      expect(await pageText(server, "/admin", boss)).toMatch(/the attempt after it failed/);
      const alerts = readOutbox(server.dataDir).filter(
        (mail) =>
          mail.to.includes("boss@example.com") &&
          /backup/i.test(mail.text) &&
          /fails/.test(mail.text),
      );
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.text).toMatch(/The backup started .* failed: /);
      // The next backup succeeds again, and the page says so.
      await postForm(server, "/admin/backups", boss, { intent: "backup-now" });
      await server.jobsSettled();
      expect(await pageText(server, "/admin/backups", boss)).toMatch(
        /The last backup succeeded on .* \(under an hour ago\)\./,
      );
    });

    it("finding 14: npm run restore -- --check refuses a backup with a customer made admin, and says why", async () => {
      const file = fs.readdirSync(backupDir).filter(isBackupFileName).sort().at(-1)!;
      const lines = gunzipSync(fs.readFileSync(path.join(backupDir, file)))
        .toString()
        .split("\n");
      const at = lines.findIndex((line) => line.includes('"email":"ravi@example.com"'));
      expect(at).toBeGreaterThan(0);
      const forgedDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-forged-"));
      const forged = path.join(forgedDir, file);
      fs.writeFileSync(
        forged,
        gzipSync(
          lines
            .map((line, n) =>
              n === at
                ? line.replace(
                    /("email":"ravi@example\.com"[^}]*"role":)(null|"[a-z]*")/,
                    '$1"admin"',
                  )
                : line,
            )
            .join("\n"),
        ),
      );
      expect(gunzipSync(fs.readFileSync(forged)).toString()).toMatch(
        /"email":"ravi@example\.com"[^}]*"role":"admin"/,
      );
      const env = {
        DATA_DIR: tempDataDir(),
        DATABASE_URL: await engine.emptyDatabaseUrl(),
        BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
      };
      const check = await runScript("scripts/restore.ts", [forged, "--check"], env);
      expect(check.output).toContain(
        `${forged} is refused: the backup's signature does not match its contents`,
      );
      expect(check.code).toBe(1);
      const restore = await runScript("scripts/restore.ts", [forged], env);
      expect(restore.output).toMatch(/signature does not match/);
      expect(restore.code).toBe(1);
      // Without the secret that signed it, a whole file is refused too, naming what is missing.
      const keyless = await runScript(
        "scripts/restore.ts",
        [path.join(backupDir, file), "--check"],
        {
          DATA_DIR: tempDataDir(),
          BETTER_AUTH_SECRET: undefined,
        },
      );
      expect(keyless.output).toMatch(
        /is refused: the backup was signed with a key from BETTER_AUTH_SECRET \(key id [0-9a-f]{16}\) that is not here/,
      );
      expect(keyless.code).toBe(1);
      // The operator is told what restoring needs besides the file.
      expect(await pageText(server, "/admin/backups", boss)).toContain(
        "Signed with a key derived from BETTER_AUTH_SECRET: restoring needs its value",
      );
      // The untouched file passes.
      const whole = await runScript(
        "scripts/restore.ts",
        [path.join(backupDir, file), "--check"],
        env,
      );
      expect(whole.output).toMatch(/is whole and signed \(BETTER_AUTH_SECRET\)/);
      expect(whole.code).toBe(0);
    });

    it("restores into an empty target with npm run restore, and the site carries on", async () => {
      await server.stop();
      // The newest: the scheduled one.
      const file = fs.readdirSync(backupDir).filter(isBackupFileName).sort().at(-1);
      // The site's BETTER_AUTH_SECRET, which the operator keeps: it signed the backups.
      const target = {
        DATA_DIR: tempDataDir(),
        DATABASE_URL: await engine.emptyDatabaseUrl(),
        BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
      };
      const restore = await runScript("scripts/restore.ts", [path.join(backupDir, file!)], target);
      expect(restore.output).toMatch(/restored the backup of .*: [\d,]+ rows in \d+ tables/);
      expect(restore.code).toBe(0);
      restored = await startServer({
        dataDir: target.DATA_DIR,
        env: {
          DATABASE_URL: target.DATABASE_URL,
          BETTER_AUTH_SECRET: target.BETTER_AUTH_SECRET,
          ADMIN_EMAILS: "boss@example.com",
        },
      });
      const site = restored;
      // The same people sign in with the same passwords.
      for (const email of ["asha@example.com", "ravi@example.com", "boss@example.com"])
        expect((await authPost(site, "/sign-in/email", { email, password: PASSWORD })).status).toBe(
          200,
        );
      // The same invoice and credit note PDFs, byte for byte.
      expect((await invoicesOf(site)).map(({ number, pdf }) => ({ number, pdf }))).toEqual(
        before.invoices,
      );
      // Both licences verify with the restored keys, and new ones are signed with the newest.
      const keys = createLocalJWKSet(await jwks(site));
      expect((await jwks(site)).keys.map((key) => String(key.kid))).toEqual(before.kids);
      for (const licence of before.licences)
        await expect(jwtVerify(licence, keys, { audience: "desktop" })).resolves.toBeDefined();
      const asha = await signIn(site, "asha@example.com");
      const access = await signInDevice(site, asha, "Asha's new Mac");
      const fresh = await licenceOf(site, access);
      expect(decodeProtectedHeader(fresh).kid).toBe(decodeProtectedHeader(before.licences[1]!).kid);
      expect(
        (await jwtVerify(fresh, keys, { audience: "desktop" })).payload.entitlement,
      ).toMatchObject({ plan: "pro-monthly" });
      // The run that took the backup shows as done, not running (nor is its job taken again).
      const boss = await signIn(site, "boss@example.com");
      const runs = await pageText(site, "/admin/backups", boss);
      expect(runs).toMatch(/Schedule Succeeded pinout-\d{8}T\d{6}\.\d{3}Z\.backup\.gz/);
      expect(runs).toMatch(/Back up now Succeeded pinout-\d{8}T\d{6}\.\d{3}Z\.backup\.gz/);
      expect(runs).not.toMatch(/Running|Did not finish/);
      expect(
        await site.sql(
          `select kind from jobs where completed_at is null and failed_at is null and locked_until is not null`,
        ),
      ).toEqual([]);
      // The release downloads the same bytes.
      const download = await fetch(`${site.url}/releases/${release.version}/${release.name}`);
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(release.bytes));
      // The next invoice takes the number after the last one issued before the backup.
      const buyer = await signUpVerified(site, {
        name: "Meera",
        email: "meera@example.com",
        password: PASSWORD,
      });
      await buyThroughSandbox(site, buyer);
      await site.jobsSettled();
      const after = await invoicesOf(site);
      const added = after.filter(
        (row) => !before.invoices.some((old) => old.number === row.number),
      );
      expect(added.map(({ invoice, sequence }) => ({ invoice, sequence }))).toEqual([
        { invoice: true, sequence: before.lastSequence + 1 },
      ]);
    });

    it("finding 13: the backups hold no session token, and a cookie from before the restore opens nothing", async () => {
      // The admin's session token (the cookie is `<token>.<signature>`), signed in throughout.
      const token = /session_token=([^.;]+)\./.exec(decodeURIComponent(boss))?.[1];
      expect(token).toBeTruthy();
      const files = fs.readdirSync(backupDir).filter(isBackupFileName);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const text = gunzipSync(fs.readFileSync(path.join(backupDir, file))).toString();
        expect(text.includes(token!), file).toBe(false);
        expect(text).not.toContain('{"kind":"rows","table":"session"');
      }
      // The restored site knows no session: the admin's cookie from before is signed out.
      const admin = await getWithCookies(restored!, "/admin", boss);
      expect(admin.status).toBe(302);
      expect(admin.headers.get("location")).toMatch(/^\/auth\?next=/);
    });

    it("leaves no complete-looking file when a backup is killed mid-way", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-backups-killed-"));
      await restored?.stop();
      const child = spawn(
        process.execPath,
        [
          path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
          "scripts/backup.ts",
          "--to",
          dir,
        ],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            TMPDIR: process.env.TMPDIR,
            DATA_DIR: dataDir,
            DATABASE_URL: databaseUrl,
            BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
            LOG_LEVEL: "warn",
          },
          stdio: "ignore",
        },
      );
      childProcesses().add(child);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // Killed as soon as the file it writes appears: the backup has begun and not finished.
      await new Promise<void>((resolve, reject) => {
        const watcher = fs.watch(dir, () => {
          if (!fs.readdirSync(dir).some(isPartialName)) return;
          watcher.close();
          child.kill("SIGKILL");
          resolve();
        });
        child.once("exit", () => {
          watcher.close();
          reject(new Error("the backup ended before it could be killed"));
        });
      });
      await exited;
      childProcesses().delete(child);
      const left = fs.readdirSync(dir);
      expect(left.filter(isBackupFileName)).toEqual([]);
      expect(left.filter(isPartialName)).toHaveLength(1);
      // What it left is not a backup restore would take, and the target stays empty.
      const target = tempDataDir();
      await expect(
        restoreBackup({
          file: path.join(dir, left.find(isPartialName)!),
          signingKeys: signingKeysForRestore({
            DATA_DIR: target,
            BETTER_AUTH_SECRET: "integration-test-secret-0123456789abcdef",
          }),
          dataDir: target,
          releases: localStorage(path.join(target, "releases")),
        }),
      ).rejects.toThrow();
      expect(fs.existsSync(path.join(target, "db", "PG_VERSION"))).toBe(false);
    });
  },
);
