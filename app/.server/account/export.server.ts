/**
 * Everything stored about a person, as one JSON document (DPDP Act 2023, s.11: a summary of the
 * personal data processed; issue 34, point 6). No secrets: no password or token hashes, no 2FA
 * secret, no full card numbers (we never have them).
 *
 * `EXPORT_COVERAGE` names every table of the schema and what the export does with it, so a new
 * table cannot be forgotten: export.server.test.ts fails until it is listed here, either with the
 * key it is exported under or with the reason it holds nothing of the person's.
 */
import { isUndecided } from "~/lib/disputes";
import { CANCEL_REASON_LABELS } from "~/lib/cancel-flow";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { stateByCode } from "~/lib/gst";
import { mailsTo } from "../mail/mail-log.server";
import { eventsOfPurchaseBrowsers, purchaseBrowserIds } from "../analytics/purchase-browser.server";
import { planLabel } from "~/lib/plans";
import { type Database, db as defaultDb } from "../db";
import {
  account as accounts,
  adminAlertSettings,
  adminApiTokens,
  auditLog,
  billingProfiles,
  desktopDevices,
  offlineLicences,
  desktopUsageEvents,
  entitlementGrants,
  feedback,
  invoices,
  onboardingReports,
  payments,
  refunds,
  disputes,
  cancelFlowVisits,
  billingLinks,
  selfRefunds,
  session as sessions,
  subscriptions,
  supportTickets,
  trials,
  couponRedemptions,
  coupons,
  referralCodes,
  referrals,
  member,
  invitation,
  organization,
  user as users,
  teamSeats,
  seatLeases,
  seatLeaseRefusals,
} from "../db/schema";
import { statusText } from "../billing/overview.server";
import { threadOf } from "../support/thread.server";

/** The top-level keys of the export. */
export const EXPORT_KEYS = [
  "exportedAt",
  "profile",
  "signInMethods",
  "twoFactor",
  "browserSessions",
  "desktopDevices",
  "licenceFiles",
  "usage",
  "feedback",
  "supportTickets",
  "mailsSent",
  "billingDetails",
  "subscriptions",
  "payments",
  "refunds",
  "disputes",
  "cancellationAnswers",
  "billingLinks",
  "invoices",
  "planGrants",
  "freeTrial",
  "couponsUsed",
  "referrals",
  "teams",
  "accountHistory",
  "analyticsConsent",
  "siteAnalytics",
  "onboardingReported",
  "adminSettings",
] as const;
export type ExportKey = (typeof EXPORT_KEYS)[number];

type Coverage = { exportedAs: ExportKey } | { notExported: string };

/** Every table, by its SQL name: where its rows about the person go, or why none do. */
export const EXPORT_COVERAGE: Record<string, Coverage> = {
  user: { exportedAs: "profile" },
  account: { exportedAs: "signInMethods" },
  two_factor: { exportedAs: "twoFactor" },
  session: { exportedAs: "browserSessions" },
  desktop_devices: { exportedAs: "desktopDevices" },
  offline_licences: { exportedAs: "licenceFiles" },
  desktop_usage_events: { exportedAs: "usage" },
  feedback: { exportedAs: "feedback" },
  support_tickets: { exportedAs: "supportTickets" },
  support_messages: { exportedAs: "supportTickets" },
  mail_log: { exportedAs: "mailsSent" },
  billing_profiles: { exportedAs: "billingDetails" },
  subscriptions: { exportedAs: "subscriptions" },
  payments: { exportedAs: "payments" },
  refunds: { exportedAs: "refunds" },
  disputes: { exportedAs: "disputes" },
  cancel_flow_visits: { exportedAs: "cancellationAnswers" },
  // The links without their secret: which mail, until when, and whether one paid.
  billing_links: { exportedAs: "billingLinks" },
  cancel_flows: { notExported: "the offer the operator shows per plan: no customer's data" },
  // Which payment had the customer's own 7-day refund (once per person): marked on that refund.
  self_refunds: { exportedAs: "refunds" },
  invoices: { exportedAs: "invoices" },
  entitlement_grants: { exportedAs: "planGrants" },
  audit_log: { exportedAs: "accountHistory" },
  onboarding_reports: { exportedAs: "onboardingReported" },
  admin_alert_settings: { exportedAs: "adminSettings" },
  admin_api_tokens: { exportedAs: "adminSettings" },
  verification: {
    notExported: "sign-in and reset links in flight: secret, and gone within the hour",
  },
  one_time_tokens: {
    notExported: "desktop sign-in handoffs: hashed secrets that expire within minutes",
  },
  desktop_refresh_tokens: {
    notExported: "hashed secrets of the devices exported under desktopDevices",
  },
  rate_limit: { notExported: "counters keyed by network address, never by account" },
  rate_limit_hits: { notExported: "counters keyed by network address, never by account" },
  // Keyed by a random browser id given only after consent; a purchase made with analytics on
  // keeps that id on the subscription, which ties that browser's events to the account.
  analytics_events: { exportedAs: "siteAnalytics" },
  analytics_daily: { notExported: "totals per day: nobody's in particular" },
  release_deliveries: { notExported: "downloads of release files per day: nobody's in particular" },
  exchange_rates: {
    notExported: "the RBI's reference rates the operator entered: no customer's data",
  },
  analytics_visitor_days: { notExported: "hashed visitor ids per day, not linked to an account" },
  analytics_rolled_days: { notExported: "which days are summed: no personal data" },
  webhook_events: {
    notExported:
      "Razorpay's messages as received; what they say is exported as subscriptions and payments",
  },
  webhook_event_ids: { notExported: "ids of Razorpay's messages already processed" },
  jobs: { notExported: "the site's work queue: mails and refunds in flight, then deleted" },
  backup_runs: { notExported: "when each backup of the whole site ran: no one's data" },
  // Its mailbox key is a keyed hash nobody can read back: the export says what it stands for.
  trials: { exportedAs: "freeTrial" },
  trial_machines: {
    notExported: "keyed hashes of the computers that had a trial: nobody can read them back",
  },
  // A use's mailbox key is a keyed hash nobody can read back: the export says what it stands for.
  coupon_redemptions: { exportedAs: "couponsUsed" },
  coupons: { notExported: "the coupon codes on offer and their terms" },
  referral_codes: { exportedAs: "referrals" },
  member: { exportedAs: "teams" },
  // Invitations sent by the person; those sent to their address are listed by team name.
  invitation: { exportedAs: "teams" },
  organization: { notExported: "the teams themselves: their names are in each membership" },
  team_profiles: { notExported: "a company's billing details, not a person's" },
  team_seats: { exportedAs: "teams" },
  seat_leases: { exportedAs: "teams" },
  seat_lease_refusals: { exportedAs: "teams" },
  team_seat_topups: { notExported: "a team's purchase of seats, not a person's" },
  // Both sides: whose link the person came through, and what their own link brought (counts and
  // rewards, never who the referred people are).
  referrals: { exportedAs: "referrals" },
  job_dedupe_keys: { notExported: "the queue's once-only keys" },
  admin_alerts: { notExported: "the operator's notices; about the business, not a person" },
  provider_plans: { notExported: "the plans on sale" },
  invoice_series: { notExported: "invoice number counters" },
  signing_keys: { notExported: "the site's own signing keys" },
  releases: { notExported: "app versions" },
  release_assets: { notExported: "app installers" },
  release_daily_counts: { notExported: "download totals per day" },
  app_version_daily_counts: { notExported: "app version totals per day" },
  update_policies: { notExported: "update rules for the app" },
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The person's data. `consent` is this browser's analytics choice (it lives only there). */
export async function exportUserData(
  userId: string,
  options: { database?: Database; siteUrl?: string; consent?: string | null } = {},
): Promise<Record<ExportKey, unknown> | null> {
  const database = options.database ?? defaultDb();
  const [profile] = await database.select().from(users).where(eq(users.id, userId));
  if (!profile) return null;
  const base = options.siteUrl ?? "";
  const [
    logins,
    browserSessions,
    devices,
    files,
    usage,
    messages,
    tickets,
    details,
    subs,
    paid,
    documents,
    grants,
    history,
    alertSettings,
    apiTokens,
    onboardingSteps,
    mails,
    trialRows,
    couponUses,
    referralCode,
    referredBy,
    referredByThem,
    memberships,
    invitationsSent,
    floatingSeatLeases,
    floatingSeatRefusals,
  ] = await Promise.all([
    database.select().from(accounts).where(eq(accounts.userId, userId)),
    database.select().from(sessions).where(eq(sessions.userId, userId)),
    database.select().from(desktopDevices).where(eq(desktopDevices.userId, userId)),
    database.select().from(offlineLicences).where(eq(offlineLicences.userId, userId)),
    database
      .select()
      .from(desktopUsageEvents)
      .where(eq(desktopUsageEvents.userId, userId))
      .orderBy(desc(desktopUsageEvents.occurredAt)),
    database.select().from(feedback).where(eq(feedback.userId, userId)),
    database
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.userId, userId))
      .orderBy(supportTickets.createdAt),
    database.select().from(billingProfiles).where(eq(billingProfiles.userId, userId)),
    database
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(asc(subscriptions.createdAt)),
    database
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(asc(payments.paidAt)),
    database
      .select({
        id: invoices.id,
        kind: invoices.kind,
        number: invoices.number,
        issuedAt: invoices.issuedAt,
        totalPaise: invoices.totalPaise,
        taxablePaise: invoices.taxablePaise,
        igstPaise: invoices.igstPaise,
        cgstPaise: invoices.cgstPaise,
        sgstPaise: invoices.sgstPaise,
      })
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(asc(invoices.issuedAt), asc(invoices.number)),
    database.select().from(entitlementGrants).where(eq(entitlementGrants.userId, userId)),
    database
      .select({
        action: auditLog.action,
        target: auditLog.target,
        reason: auditLog.reason,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, userId))
      .orderBy(asc(auditLog.createdAt)),
    database.select().from(adminAlertSettings).where(eq(adminAlertSettings.userId, userId)),
    database
      .select({
        name: adminApiTokens.name,
        createdAt: adminApiTokens.createdAt,
        lastUsedAt: adminApiTokens.lastUsedAt,
        revokedAt: adminApiTokens.revokedAt,
      })
      .from(adminApiTokens)
      .where(eq(adminApiTokens.userId, userId)),
    database
      .select({ step: onboardingReports.step, at: onboardingReports.reportedAt })
      .from(onboardingReports)
      .where(eq(onboardingReports.userId, userId))
      .orderBy(asc(onboardingReports.reportedAt)),
    mailsTo(profile.email, database, 1000),
    database
      .select({
        startedAt: trials.startedAt,
        endsAt: trials.endsAt,
        source: trials.source,
        endReason: trials.endReason,
      })
      .from(trials)
      .where(eq(trials.userId, userId)),
    database
      .select({
        code: coupons.code,
        usedAt: couponRedemptions.createdAt,
        subscriptionId: subscriptions.providerSubscriptionId,
      })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .leftJoin(subscriptions, eq(subscriptions.id, couponRedemptions.subscriptionId))
      .where(eq(couponRedemptions.userId, userId))
      .orderBy(asc(couponRedemptions.createdAt)),
    database.select().from(referralCodes).where(eq(referralCodes.userId, userId)),
    database
      .select({
        signedUpAt: referrals.createdAt,
        firstPaidAt: referrals.firstPaidAt,
        rewardedAt: referrals.rewardedAt,
        rewardDays: referrals.rewardDays,
      })
      .from(referrals)
      .where(eq(referrals.referredUserId, userId)),
    database
      .select({
        signedUpAt: referrals.createdAt,
        firstPaidAt: referrals.firstPaidAt,
        rewardedAt: referrals.rewardedAt,
        rewardDays: referrals.rewardDays,
        voidedAt: referrals.voidedAt,
      })
      .from(referrals)
      .where(eq(referrals.referrerUserId, userId))
      .orderBy(asc(referrals.createdAt)),
    database
      .select({
        team: organization.name,
        role: member.role,
        joinedAt: member.createdAt,
        // Whether they hold one of the team's Pro seats, and since when.
        seatSince: teamSeats.assignedAt,
      })
      .from(member)
      .innerJoin(organization, eq(organization.id, member.organizationId))
      .leftJoin(
        teamSeats,
        and(eq(teamSeats.organizationId, member.organizationId), eq(teamSeats.userId, userId)),
      )
      .where(eq(member.userId, userId)),
    database
      .select({
        team: organization.name,
        email: invitation.email,
        role: invitation.role,
        status: invitation.status,
        sentAt: invitation.createdAt,
      })
      .from(invitation)
      .innerJoin(organization, eq(organization.id, invitation.organizationId))
      .where(eq(invitation.inviterId, userId)),
    // Floating seats (issue 57): which of the person's machines held one of a team's, and when.
    database
      .select({
        team: organization.name,
        machine: desktopDevices.name,
        acquiredAt: seatLeases.acquiredAt,
        lastCheckIn: seatLeases.renewedAt,
        expiresAt: seatLeases.expiresAt,
        releasedAt: seatLeases.releasedAt,
        releaseReason: seatLeases.releaseReason,
        overage: seatLeases.overage,
      })
      .from(seatLeases)
      .innerJoin(organization, eq(organization.id, seatLeases.organizationId))
      .innerJoin(desktopDevices, eq(desktopDevices.id, seatLeases.deviceId))
      .where(eq(seatLeases.userId, userId))
      .orderBy(asc(seatLeases.acquiredAt)),
    database
      .select({ team: organization.name, refusedAt: seatLeaseRefusals.refusedAt })
      .from(seatLeaseRefusals)
      .innerJoin(organization, eq(organization.id, seatLeaseRefusals.organizationId))
      .where(eq(seatLeaseRefusals.userId, userId))
      .orderBy(asc(seatLeaseRefusals.refusedAt)),
  ]);
  const paymentIds = paid.map((payment) => payment.providerPaymentId);
  const [refundRows, threads, siteEvents, ownRefunds, disputeRows, cancelVisits, links] =
    await Promise.all([
      paymentIds.length > 0
        ? database
            .select()
            .from(refunds)
            .where(inArray(refunds.providerPaymentId, paymentIds))
            .orderBy(asc(refunds.createdAt))
        : Promise.resolve([]),
      Promise.all(tickets.map((ticket) => threadOf(database, ticket.id, { withNotes: false }))),
      eventsOfPurchaseBrowsers(database, purchaseBrowserIds(subs)),
      database
        .select({ paymentId: selfRefunds.providerPaymentId })
        .from(selfRefunds)
        .where(eq(selfRefunds.userId, userId)),
      database
        .select()
        .from(disputes)
        .where(eq(disputes.userId, userId))
        .orderBy(asc(disputes.openedAt)),
      subs.length > 0
        ? database
            .select()
            .from(cancelFlowVisits)
            .where(
              inArray(
                cancelFlowVisits.subscriptionId,
                subs.map((row) => row.id),
              ),
            )
            .orderBy(asc(cancelFlowVisits.shownAt))
        : Promise.resolve([]),
      database
        .select()
        .from(billingLinks)
        .where(eq(billingLinks.userId, userId))
        .orderBy(asc(billingLinks.createdAt)),
    ]);
  const ownRefundOf = new Set(ownRefunds.map((row) => row.paymentId));
  const subscriptionOf = new Map(subs.map((row) => [row.id, row.providerSubscriptionId]));
  const profileRow = details[0];

  return {
    exportedAt: new Date().toISOString(),
    profile: {
      id: profile.id,
      name: profile.name,
      email: profile.email,
      emailVerified: profile.emailVerified,
      role: profile.role,
      createdAt: profile.createdAt,
    },
    signInMethods: logins.map((login) => ({
      provider: login.providerId,
      createdAt: login.createdAt,
    })),
    // Whether it is on, never its secret or backup codes.
    twoFactor: { enabled: profile.twoFactorEnabled === true },
    browserSessions: browserSessions.map((entry) => ({
      createdAt: entry.createdAt,
      expiresAt: entry.expiresAt,
      ipAddress: entry.ipAddress,
      userAgent: entry.userAgent,
    })),
    desktopDevices: devices.map((device) => ({
      name: device.name,
      platform: device.platform,
      appVersion: device.appVersion,
      createdAt: device.createdAt,
      lastSeenAt: device.lastSeenAt,
      revokedAt: device.revokedAt,
    })),
    // Licence files for computers without internet (issue 57): the name given, and until when.
    licenceFiles: files.map((file) => ({
      name: file.name,
      fingerprintSha256: file.fingerprintHash,
      createdAt: file.createdAt,
      expiresAt: file.expiresAt,
    })),
    usage: usage.map((event) => ({
      feature: event.feature,
      count: event.count,
      at: event.occurredAt,
      appVersion: event.appVersion,
    })),
    feedback: messages.map((message) => ({
      category: message.category,
      message: message.message,
      createdAt: message.createdAt,
    })),
    // The tickets as the customer sees them on the site (the team's internal notes are not theirs).
    supportTickets: tickets.map((ticket, index) => ({
      number: ticket.number,
      category: ticket.category,
      subject: ticket.subject,
      status: ticket.status,
      createdAt: ticket.createdAt,
      closedAt: ticket.closedAt,
      messages: (threads[index] ?? []).map((message) => ({
        from: message.side === "customer" ? "you" : message.authorName,
        body: message.body,
        at: message.createdAt,
      })),
    })),
    // What we mailed them: subject, when and whether it left; the bodies are not kept.
    mailsSent: mails.map((mail) => ({
      subject: mail.subject,
      firstTriedAt: mail.firstAttemptAt,
      lastTriedAt: mail.lastAttemptAt,
      status: mail.status,
      tries: mail.attempts,
    })),
    billingDetails: profileRow
      ? {
          name: profileRow.name,
          addressLine1: profileRow.addressLine1,
          addressLine2: profileRow.addressLine2,
          city: profileRow.city,
          postalCode: profileRow.postalCode,
          state: stateByCode(profileRow.stateCode)?.name ?? profileRow.stateCode,
          gstin: profileRow.gstin,
          updatedAt: profileRow.updatedAt,
        }
      : null,
    subscriptions: subs.map((row) => ({
      razorpaySubscriptionId: row.providerSubscriptionId,
      plan: planLabel(row.planId),
      status: statusText(row),
      createdAt: row.createdAt,
      currentPeriod: { start: iso(row.currentStart), end: iso(row.currentEnd) },
      nextChargeAt: iso(row.chargeAt),
      endedAt: iso(row.endedAt),
      paymentsMade: row.paidCount,
      cancelReason: row.cancelReason,
    })),
    payments: paid.map((payment) => ({
      razorpayPaymentId: payment.providerPaymentId,
      razorpaySubscriptionId: payment.subscriptionId
        ? (subscriptionOf.get(payment.subscriptionId) ?? null)
        : null,
      amountPaise: payment.amountPaise,
      currency: payment.currency,
      inrValuePaise: payment.inrValuePaise,
      status: payment.status,
      method: payment.method,
      cardNetwork: payment.cardNetwork,
      cardLast4: payment.cardLast4,
      upiAddress: payment.vpa,
      refundedPaise: payment.amountRefundedPaise,
      failure: payment.errorDescription,
      at: payment.paidAt,
    })),
    refunds: refundRows.map((refund) => ({
      razorpayRefundId: refund.providerRefundId,
      razorpayPaymentId: refund.providerPaymentId,
      amountPaise: refund.amountPaise,
      status: refund.status,
      reason: refund.reason,
      at: refund.createdAt,
      // The refund policy's once-per-person refund; its mailbox is kept as a keyed hash only.
      yourOwnSevenDayRefund: ownRefundOf.has(refund.providerPaymentId),
    })),
    // Chargebacks your bank raised against a payment, as Razorpay reported them.
    disputes: disputeRows.map((dispute) => ({
      razorpayDisputeId: dispute.providerDisputeId,
      razorpayPaymentId: dispute.providerPaymentId,
      amountMinor: dispute.amountMinor,
      currency: dispute.currency,
      status: dispute.status,
      reason: dispute.reason,
      openedAt: dispute.openedAt,
      decidedAt: isUndecided(dispute.status) ? null : dispute.updatedAt,
    })),
    // Each time you opened "Cancel subscription": the offer shown, your reason and what you chose.
    cancellationAnswers: cancelVisits.map((visit) => ({
      razorpaySubscriptionId: subscriptionOf.get(visit.subscriptionId) ?? null,
      offerShown: visit.offer,
      reason: visit.reason ? CANCEL_REASON_LABELS[visit.reason] : null,
      yourWords: visit.reasonText,
      outcome: visit.outcome,
      openedAt: visit.shownAt,
      decidedAt: visit.decidedAt,
    })),
    // Links to manage a subscription without signing in, sent in billing mails (never the secret).
    billingLinks: links.map((link) => ({
      razorpaySubscriptionId: subscriptionOf.get(link.subscriptionId) ?? null,
      sentWith: link.sentWith,
      sentAt: link.createdAt,
      expiresAt: link.expiresAt,
      usedForPaymentAt: link.usedForPaymentAt,
    })),
    invoices: documents.map((document) => ({
      kind: document.kind === "credit_note" ? "credit note" : "tax invoice",
      number: document.number,
      issuedAt: document.issuedAt,
      totalPaise: document.totalPaise,
      taxablePaise: document.taxablePaise,
      gstPaise: document.igstPaise + document.cgstPaise + document.sgstPaise,
      pdf: `${base}/invoices/${document.id}.pdf`,
    })),
    planGrants: grants.map((grant) => ({
      plan: planLabel(grant.planId),
      startsAt: grant.startsAt,
      endsAt: grant.endsAt,
      reason: grant.reason,
    })),
    freeTrial: trialRows.map((trial) => ({
      ...trial,
      // The mailbox is kept only as a keyed hash, to give one trial per person (privacy policy).
      mailbox: "remembered as a one-way fingerprint of your email address",
    })),
    couponsUsed: couponUses.map((use) => ({
      ...use,
      // Kept only as a keyed hash, for a coupon's one-per-person limit (privacy policy).
      mailbox: "remembered as a one-way fingerprint of your email address",
    })),
    referrals: {
      yourCode: referralCode[0]?.code ?? null,
      youSignedUpThroughALink: referredBy[0] ?? null,
      // People who signed up through your link, without who they are.
      throughYourLink: referredByThem,
    },
    teams: { memberships, invitationsSent, floatingSeatLeases, floatingSeatRefusals },
    // What our team did on the account (refunds, cancellations, grants), without who did it.
    accountHistory: history.map((entry) => ({
      action: entry.action,
      about: entry.target,
      reason: entry.reason,
      at: entry.createdAt,
    })),
    analyticsConsent: {
      choice: options.consent ?? "not chosen",
      storedIn: "this browser's cookie only; we keep no copy tied to your account",
    },
    // The site analytics of the browser(s) you bought in with analytics on: your subscription
    // keeps that browser's id (privacy policy), which ties these events to you.
    siteAnalytics: siteEvents.map(({ name, params, occurredAt }) => ({
      name,
      params,
      at: occurredAt,
    })),
    // Which first-run checklist steps were counted in analytics (the events carry no account).
    onboardingReported: onboardingSteps,
    adminSettings:
      alertSettings.length > 0 || apiTokens.length > 0
        ? {
            alerts: alertSettings.map((row) => ({ kinds: row.kinds, delivery: row.delivery })),
            apiTokens: apiTokens,
          }
        : null,
  };
}
