/**
 * Licence files for machines that cannot reach the site (issue 57, point 3; decision 0063): from
 * the Security page, a file for one machine's fingerprint, valid for the days chosen but never
 * past what is paid, signed with the licence key the JWKS publishes. It cannot be revoked (the
 * machine never asks the site again): only its expiry ends it, and the page says so. Until then
 * it holds one of the plan's device slots.
 */
import { createHash, randomUUID } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { formatDate } from "~/lib/dates";
import { entitlementFor } from "../billing/entitlement.server";
import { type Database, db as defaultDb } from "../db";
import { offlineLicences, user as users } from "../db/schema";
import { env } from "../env";
import { AppError } from "../http/errors";
import { slotsInUse } from "./check-ins.server";
import { licenceFileSigner } from "./license.server";

export const LICENCE_FILE_FORMAT = "pinout-licence-file/1";

/**
 * Why a licence file was not made, by code: the form posts to a resource route (the answer is a
 * download), which sends a refusal back to the Security page as `?licence=<code>`; the page says
 * these words, never text from the address.
 */
export const LICENCE_FILE_REFUSALS = {
  "not-pro": "Licence files for offline computers are part of Pro.",
  floating:
    "Your Pro comes from a team's floating seat, which a computer holds only while the app checks in: a computer without internet cannot hold one. Ask the team's owner for named seats, or use Pro of your own.",
  ends: "What is paid ends too soon for a licence file: renew first, then make the file.",
  full: "All your device slots are in use (computers signed in, or holding a licence file): sign a computer out above first.",
  invalid:
    "Name the computer, paste the fingerprint the app shows on it (8 characters or more), and choose how long the file is valid.",
} as const;
export type LicenceFileRefusal = keyof typeof LICENCE_FILE_REFUSALS;

export function isLicenceFileRefusal(value: unknown): value is LicenceFileRefusal {
  return typeof value === "string" && Object.hasOwn(LICENCE_FILE_REFUSALS, value);
}
const DAY_MS = 86_400_000;

export const licenceFileSchema = z.object({
  intent: z.literal("licence-file"),
  name: z
    .string()
    .trim()
    .min(1, { error: "Name the computer, e.g. Lab bench 2." })
    .max(60, { error: "Use at most 60 characters." }),
  fingerprint: z
    .string()
    .trim()
    .min(8, {
      error: "Paste the fingerprint the app shows on that computer (8 characters or more).",
    })
    .max(200, { error: "A fingerprint has at most 200 characters." }),
  days: z.coerce
    .number({ error: "Choose how long the file is valid." })
    .int()
    .min(1, { error: "Choose how long the file is valid." })
    .max(366, { error: "A file is valid for at most a year." }),
});

/** SHA-256 (hex) of a fingerprint: what the file and the table keep, and the app compares. */
export function fingerprintHash(fingerprint: string): string {
  return createHash("sha256").update(fingerprint.trim()).digest("hex");
}

/** The file to download: its JSON, name and expiry. */
export async function issueLicenceFile(
  userId: string,
  input: Omit<z.output<typeof licenceFileSchema>, "intent">,
  database: Database = defaultDb(),
  now: Date = new Date(),
): Promise<{ body: string; filename: string; expiresAt: Date }> {
  // A floating seat is held by a machine while it checks in (issue 57): never by a file.
  const entitlement = await entitlementFor(userId, { database, now, floatingSeats: false });
  const paidUntil = entitlement.paid_until ?? entitlement.expires_at;
  if (entitlement.plan === "free" || !paidUntil) {
    const withFloating = await entitlementFor(userId, { database, now });
    const refusal = withFloating.plan === "free" ? "not-pro" : "floating";
    throw new AppError("conflict", LICENCE_FILE_REFUSALS[refusal], { field: refusal });
  }
  const end = Math.min(now.getTime() + input.days * DAY_MS, Date.parse(paidUntil));
  if (end - now.getTime() < 60 * 60 * 1000)
    throw new AppError(
      "conflict",
      `What is paid ends on ${formatDate(paidUntil)}: a licence file would end at once. Renew first, then make the file.`,
      { field: "ends" },
    );
  const expiresAt = new Date(Math.floor(end / 1000) * 1000);
  const id = randomUUID();
  const hash = fingerprintHash(input.fingerprint);
  const sign = await licenceFileSigner(database);
  const token = await database.transaction(async (tx) => {
    // One slot decision at a time per account (as a sign-in takes it): the user row is locked.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const inUse = await slotsInUse(tx, userId, now);
    if (inUse >= entitlement.device_limit)
      throw new AppError(
        "conflict",
        `Your plan allows ${entitlement.device_limit} computers and ${inUse} are in use (signed in, or holding a licence file): sign one out above first.`,
        { field: "full" },
      );
    const signed = sign({
      entitlement,
      machine: { fingerprint_sha256: hash, name: input.name },
      licence_id: id,
      sub: userId,
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
    await tx.insert(offlineLicences).values({
      id,
      userId,
      name: input.name,
      fingerprintHash: hash,
      kid: signed.kid,
      expiresAt,
      createdAt: now,
    });
    return signed.token;
  });
  return licenceFileDownload(input.name, expiresAt, token);
}

/** A licence file's download (a person's or a team's): its JSON, name and expiry. */
export function licenceFileDownload(
  name: string,
  expiresAt: Date,
  token: string,
): { body: string; filename: string; expiresAt: Date } {
  const file = {
    format: LICENCE_FILE_FORMAT,
    machine: name,
    expires_at: expiresAt.toISOString(),
    // The app verifies it with the keys it saved from here while it was online.
    verify_with: `${env().SITE_URL}/.well-known/jwks.json`,
    licence: token,
  };
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "machine";
  return {
    body: `${JSON.stringify(file, null, 2)}\n`,
    filename: `pinout-licence-${slug}.json`,
    expiresAt,
  };
}

/** The file as an attachment, never cached. */
export function licenceFileResponse(file: { body: string; filename: string }): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** The account's licence files not expired yet, soonest to end first. */
export async function licenceFilesOf(
  userId: string,
  database: Database = defaultDb(),
  now: Date = new Date(),
) {
  return database
    .select({
      id: offlineLicences.id,
      name: offlineLicences.name,
      expiresAt: offlineLicences.expiresAt,
      createdAt: offlineLicences.createdAt,
    })
    .from(offlineLicences)
    .where(
      and(
        eq(offlineLicences.userId, userId),
        gt(offlineLicences.expiresAt, now),
        isNull(offlineLicences.organizationId),
      ),
    )
    .orderBy(offlineLicences.expiresAt);
}

/**
 * The form's answer: the file as an attachment (never cached), or back to the Security page with
 * the refusal's code (a 303, so a reload does not post again).
 */
export async function licenceFileAnswer(userId: string, form: FormData): Promise<Response> {
  const back = (code: LicenceFileRefusal) =>
    new Response(null, {
      status: 303,
      headers: { Location: `/account/security?licence=${code}#licence-files` },
    });
  const parsed = licenceFileSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return back("invalid");
  try {
    return licenceFileResponse(await issueLicenceFile(userId, parsed.data));
  } catch (error) {
    if (error instanceof AppError && isLicenceFileRefusal(error.field)) return back(error.field);
    throw error;
  }
}
