/**
 * The one database schema of the product: every table, its relations and inferred types.
 * Both engines (PGlite embedded, PostgreSQL server) run the migrations generated from this file
 * (`npm run db:generate`), so write only what PostgreSQL 15 accepts.
 *
 * Identity tables are generated from Better Auth's own definitions (`npm run db:auth-schema`,
 * from app/.server/auth/options.ts) into auth-schema.ts; edit the options, not that file.
 */
import { getTableColumns, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { ALERT_DELIVERIES, ALERT_KINDS, type AlertKind } from "../../lib/alerts";
import { TICKET_CATEGORIES, TICKET_STATUSES } from "../../lib/support";
import { TRIAL_END_REASONS } from "../../lib/trials";
import { CURRENCIES, type Currency, type ForeignCurrency } from "../../lib/money";
import { LEASE_END_REASONS, type OveragePercent, SEAT_MODES } from "../../lib/floating-seats";
import { SUBSCRIPTION_STATUSES } from "../billing/razorpay/types";
import { DISPUTE_STATUSES } from "../../lib/disputes";
import { CANCEL_OFFER_KINDS, CANCEL_REASONS, CANCEL_VISIT_OUTCOMES } from "../../lib/cancel-flow";
import type { InvoiceDocument } from "../invoices/types";
import { organization, user as users } from "./auth-schema";

export * from "./auth-schema";

export type UserRow = typeof users.$inferSelect;

/**
 * Desktop app versions. A release is a draft while its files upload (invisible to every feed and
 * page), then published; an operator rolls it out by percentage, pauses it or pulls it. Its
 * version and files never change once published.
 */
export const RELEASE_STATUSES = ["draft", "published", "pulled"] as const;
export const RELEASE_CHANNELS = ["stable", "beta"] as const;

export const releases = pgTable(
  "releases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    version: text("version").notNull().unique(),
    channel: text("channel", { enum: RELEASE_CHANNELS }).notNull().default("stable"),
    notes: text("notes").notNull().default(""),
    /**
     * The notes in other languages, by BCP 47 tag (`{"hi": "…"}`): Sparkle shows the one of the
     * Mac's language (`xml:lang`), else `notes`.
     */
    notesTranslations: jsonb("notes_translations")
      .$type<Record<string, string>>()
      .notNull()
      .default({}),
    status: text("status", { enum: RELEASE_STATUSES }).notNull().default("published"),
    /** Share of clients offered this release (stable bucket per client); 100 = everyone. */
    rolloutPercent: integer("rollout_percent").notNull().default(100),
    paused: boolean("paused").notNull().default(false),
    /** Sparkle's criticalUpdate; also set by the feeds for anything below a platform's minimum. */
    critical: boolean("critical").notNull().default(false),
    minimumSystemVersion: text("minimum_system_version"),
    /**
     * Sparkle (issue 58, point 2): an informational update (the app shows it and links to the
     * download, without installing), and the version below which Sparkle asks before installing
     * rather than updating silently (`minimumAutoupdateVersion`).
     */
    informational: boolean("informational").notNull().default(false),
    minimumAutoupdateVersion: text("minimum_autoupdate_version"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("releases_channel_check", sql`${table.channel} in ('stable', 'beta')`),
    check("releases_status_check", sql`${table.status} in ('draft', 'published', 'pulled')`),
    check("releases_rollout_check", sql`${table.rolloutPercent} between 0 and 100`),
    index("releases_channel_published_idx").on(table.channel, table.publishedAt),
  ],
);

/**
 * What a file of a release is for: the installer people download, the archive an updater
 * installs (Squirrel.Mac's .zip, Tauri's .app.tar.gz / .msi / -setup.exe, Velopack's full
 * .nupkg), electron-updater's .blockmap beside the Windows installer, or a delta: only what
 * changed since an older version (Sparkle's .delta, Velopack's delta .nupkg).
 */
export const ASSET_KINDS = ["installer", "update", "blockmap", "delta"] as const;

/**
 * Which updater reads a file: electron-updater, Tauri, Sparkle (its `.delta` files; the full
 * update is the `.zip` electron-updater reads too) or Velopack (`.nupkg`, full and delta).
 */
export const UPDATERS = ["electron", "tauri", "sparkle", "velopack"] as const;

/** One file of a release: stored under DATA_DIR/releases or in S3 (storage_key), or hosted elsewhere. */
export const releaseAssets = pgTable(
  "release_assets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    releaseId: uuid("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: ["mac", "windows"] }).notNull(),
    arch: text("arch").notNull().default("universal"),
    kind: text("kind", { enum: ASSET_KINDS }).notNull().default("installer"),
    /** Which updater reads it (null for installers and blockmaps). */
    updater: text("updater", { enum: UPDATERS }),
    /**
     * A delta's base: the version it turns into this one (Sparkle's `sparkle:deltaFrom`). Null
     * for every other file, and for Velopack's deltas, whose base is the release before.
     */
    fromVersion: text("from_version"),
    /** Velopack: the package id from the .nupkg's manifest (its feed's `PackageId`). */
    packageId: text("package_id"),
    /** Hex SHA-1 (Velopack's feed carries it beside SHA-256); null on files from before. */
    sha1: text("sha1"),
    fileName: text("file_name").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    /**
     * Base64 SHA-512 of the exact bytes served (electron-updater's format). Null only on rows
     * from before it existed until start-up fills it in, and on hosted files (never in a feed).
     */
    sha512: text("sha512"),
    /** Tauri: the minisign .sig contents supplied at publish (Tauri signs at build time). */
    signature: text("signature"),
    /** Sparkle: base64 Ed25519 signature, supplied at publish or made with the site's update key. */
    edSignature: text("ed_signature"),
    storageKey: text("storage_key"),
    externalUrl: text("external_url"),
    downloadCount: integer("download_count").notNull().default(0),
  },
  (table) => [
    unique("release_assets_release_file_key").on(table.releaseId, table.fileName),
    unique("release_assets_release_slot_key")
      .on(table.releaseId, table.platform, table.arch, table.kind, table.updater, table.fromVersion)
      .nullsNotDistinct(),
    check("release_assets_platform_check", sql`${table.platform} in ('mac', 'windows')`),
    check(
      "release_assets_kind_check",
      sql`${table.kind} in ('installer', 'update', 'blockmap', 'delta')`,
    ),
    check(
      "release_assets_location_check",
      sql`${table.storageKey} is not null or ${table.externalUrl} is not null`,
    ),
    check("release_assets_sha256_check", sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
    check(
      "release_assets_updater_check",
      sql`${table.updater} is null or ${table.updater} in ('electron', 'tauri', 'sparkle', 'velopack')`,
    ),
  ],
);

/**
 * Downloads and update checks per release, platform, arch, channel and day: counters, never who
 * (no IP addresses, no user ids).
 */
export const releaseDailyCounts = pgTable(
  "release_daily_counts",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    platform: text("platform").notNull(),
    arch: text("arch").notNull(),
    channel: text("channel").notNull(),
    event: text("event", { enum: ["download", "update_check"] }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [
    primaryKey({
      columns: [table.day, table.version, table.platform, table.arch, table.channel, table.event],
    }),
    check("release_daily_counts_day_check", sql`${table.day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
  ],
);

/**
 * How a release's files were delivered, per India day, version, platform and kind (issue 58,
 * point 6): `full` (the whole file), `differential` (only changed blocks, in one multi-range
 * request) or `delta` (a delta package); the bytes sent and the bytes the whole file would have
 * cost. Counted in memory and written in batches, as the other counters (decision 0030).
 */
export const releaseDeliveries = pgTable(
  "release_deliveries",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    platform: text("platform").notNull(),
    kind: text("kind", { enum: ["full", "differential", "delta"] }).notNull(),
    count: integer("count").notNull().default(0),
    bytesServed: bigint("bytes_served", { mode: "number" }).notNull().default(0),
    bytesFull: bigint("bytes_full", { mode: "number" }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.version, table.platform, table.kind] }),
    check("release_deliveries_day_check", sql`${table.day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
    check("release_deliveries_kind_check", sql`${table.kind} in ('full', 'differential', 'delta')`),
  ],
);

/** Which app versions ask for updates, per day (the version a client reports, never who). */
export const appVersionDailyCounts = pgTable(
  "app_version_daily_counts",
  {
    day: text("day").notNull(),
    version: text("version").notNull(),
    platform: text("platform").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.version, table.platform] })],
);

/** The oldest app version still supported on a platform; older apps must update. */
export const updatePolicies = pgTable("update_policies", {
  platform: text("platform", { enum: ["mac", "windows"] }).primaryKey(),
  minimumVersion: text("minimum_version").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Tokens for the admin API (`npm run release:publish` against a running site), stored only as
 * SHA-256 hashes; the token is shown once when created.
 */
export const adminApiTokens = pgTable("admin_api_tokens", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

/** Messages from the feedback form. */
export const feedback = pgTable(
  "feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    category: text("category", { enum: ["bug", "feature", "billing", "other"] }).notNull(),
    message: text("message").notNull(),
    rating: integer("rating"),
    appVersion: text("app_version"),
    os: text("os"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: ["new", "read", "closed"] })
      .notNull()
      .default("new"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("feedback_rating_check", sql`${table.rating} is null or ${table.rating} between 1 and 5`),
    check(
      "feedback_category_check",
      sql`${table.category} in ('bug', 'feature', 'billing', 'other')`,
    ),
    index("feedback_status_created_idx").on(table.status, table.createdAt),
  ],
);

/** First-party analytics events, stored only after the visitor consented. */
/* ---------------------------------------------------------------------------------------------
 * The support desk (issue 33): a customer's ticket and its thread. `number` is what people quote
 * ("ticket #1001"); the deadlines are the Consumer Protection (E-Commerce) Rules' (acknowledge
 * within 48 hours, resolve within a month), read from `createdAt`, `firstReplyAt`, `closedAt`.
 * ------------------------------------------------------------------------------------------- */

export const supportTickets = pgTable(
  "support_tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: integer("number").notNull().unique().generatedAlwaysAsIdentity({ startWith: 1001 }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text("category", { enum: TICKET_CATEGORIES }).notNull(),
    subject: text("subject").notNull(),
    /** What the customer pointed at when opening it (optional). */
    invoiceId: uuid("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    deviceId: uuid("device_id").references(() => desktopDevices.id, { onDelete: "set null" }),
    /** Open: waiting for the team; answered: waiting for the customer; closed. */
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The team's first reply (an internal note is not one). */
    firstReplyAt: timestamp("first_reply_at", { withTimezone: true }),
    /** The last message either side wrote. */
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (table) => [
    check(
      "support_tickets_category_check",
      sql`${table.category} in ('billing', 'refund', 'app', 'account', 'privacy', 'other')`,
    ),
    check("support_tickets_status_check", sql`${table.status} in ('open', 'answered', 'closed')`),
    check(
      "support_tickets_closed_check",
      sql`(${table.status} = 'closed') = (${table.closedAt} is not null)`,
    ),
    index("support_tickets_user_idx").on(table.userId, table.createdAt),
    index("support_tickets_status_idx").on(table.status, table.lastMessageAt),
  ],
);

export const supportMessages = pgTable(
  "support_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => supportTickets.id, { onDelete: "cascade" }),
    /** Null once the writer's account is gone; `authorName` stays. */
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    side: text("side", { enum: ["customer", "team"] }).notNull(),
    /** An internal note: the team's only, never shown or mailed to the customer. */
    internal: boolean("internal").notNull().default(false),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("support_messages_side_check", sql`${table.side} in ('customer', 'team')`),
    check("support_messages_note_check", sql`not ${table.internal} or ${table.side} = 'team'`),
    index("support_messages_ticket_idx").on(table.ticketId, table.createdAt),
  ],
);

export type SupportTicketRow = typeof supportTickets.$inferSelect;
export type SupportMessageRow = typeof supportMessages.$inferSelect;

/* ---------------------------------------------------------------------------------------------
 * The operator's alerts (issue 33, point 3): each event once (`eventKey` is unique, so an event
 * raised twice is one alert), and each admin's choice of kinds and delivery.
 * ------------------------------------------------------------------------------------------- */

export const adminAlerts = pgTable(
  "admin_alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind", { enum: ALERT_KINDS }).notNull(),
    /** What makes the event itself: "payment-failed:sub_…:1700000000:2". */
    eventKey: text("event_key").notNull().unique(),
    summary: text("summary").notNull(),
    /** The admin page that deals with it ("/admin/support/1001"). */
    path: text("path").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("admin_alerts_created_idx").on(table.createdAt)],
);

export const adminAlertSettings = pgTable("admin_alert_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  kinds: jsonb("kinds").$type<AlertKind[]>().notNull(),
  delivery: text("delivery", { enum: ALERT_DELIVERIES }).notNull(),
  /** The newest alert a digest has covered: the next digest starts after it. */
  digestedThroughId: bigint("digested_through_id", { mode: "number" }).notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    params: jsonb("params").notNull(),
    clientId: text("client_id"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The funnel reads distinct visitors per step from this index alone (client_id included).
    index("analytics_events_name_time_client_idx").on(table.name, table.occurredAt, table.clientId),
    // The daily roll-up and the retention prune walk events by time.
    index("analytics_events_time_idx").on(table.occurredAt),
  ],
);

/**
 * Analytics events summed per India day once the day can no longer change (events may arrive up
 * to a day late), so the cockpit reads days, not millions of rows, and raw events can be pruned
 * after the retention period without losing the history. `dim`/`dim2` are the metric's keys
 * (a page path; a CTA's name and location; an exception's type and location).
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    day: text("day").notNull(),
    metric: text("metric").notNull(),
    dim: text("dim").notNull().default(""),
    dim2: text("dim2").notNull().default(""),
    events: integer("events").notNull(),
    visitors: integer("visitors").notNull(),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.metric, table.dim, table.dim2] }),
    index("analytics_daily_metric_day_idx").on(table.metric, table.day),
    check("analytics_daily_day_check", sql`${table.day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
  ],
);

/**
 * What each visitor did on a summed India day, as bits (analytics/funnel.server.ts): the funnel
 * counts distinct visitors over a period, which per-day counts cannot add up to, so it reads these
 * narrow rows instead of the raw events. Pruned with the raw events (they carry the client id).
 */
export const analyticsVisitorDays = pgTable(
  "analytics_visitor_days",
  {
    day: text("day").notNull(),
    clientId: text("client_id").notNull(),
    steps: integer("steps").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.clientId] })],
);

/** The India days whose events are in `analytics_daily` (written in the same transaction). */
export const analyticsRolledDays = pgTable(
  "analytics_rolled_days",
  {
    day: text("day").primaryKey(),
    rolledAt: timestamp("rolled_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("analytics_rolled_days_day_check", sql`${table.day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
  ],
);

/** Fixed-window counters for the site's own rate limits (feedback, events), shared by instances. */
export const rateLimitHits = pgTable("rate_limit_hits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
});

export type Release = typeof releases.$inferSelect;
export type ReleaseAsset = typeof releaseAssets.$inferSelect;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];
export type AssetKind = (typeof ASSET_KINDS)[number];
export type Updater = (typeof UPDATERS)[number];

/**
 * Single-use tokens, stored only as SHA-256 hashes. `desktop_handoff`: web → app (bound to a PKCE
 * challenge and redirect URI); `web_session`: app → web sign-in (names the device);
 * `delete_account`: the emailed link that confirms deleting an account without a password.
 */
export const ONE_TIME_TOKEN_PURPOSES = [
  "desktop_handoff",
  "web_session",
  "delete_account",
] as const;
export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose", { enum: ONE_TIME_TOKEN_PURPOSES }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    payload: jsonb("payload").notNull().default({}),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "one_time_tokens_purpose_check",
      sql`${table.purpose} in ('desktop_handoff', 'web_session', 'delete_account')`,
    ),
    index("one_time_tokens_user_idx").on(table.userId),
  ],
);

/** A signed-in copy of the desktop app. Its current access token is stored hashed. */
export const desktopDevices = pgTable(
  "desktop_devices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    platform: text("platform").notNull(),
    appVersion: text("app_version").notNull(),
    accessTokenHash: text("access_token_hash").notNull().unique(),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /**
     * A keyed hash of the machine identifier the app sends at sign-in (never the identifier):
     * one free trial per computer (issue 36, point 2). Null for apps that send none.
     */
    machineKey: text("machine_key"),
  },
  (table) => [index("desktop_devices_user_idx").on(table.userId)],
);

/**
 * A licence file for a machine that cannot reach the site (issue 57, point 3; decision 0063):
 * bound to a keyed hash of the machine's fingerprint, signed by licence key `kid`, valid until
 * `expires_at` (within the paid period) and revocable only by that expiry. Until then it holds
 * one of the plan's device slots, and its key stays in the JWKS.
 */
export const offlineLicences = pgTable(
  "offline_licences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What the person called the machine ("Lab bench 2"). */
    name: text("name").notNull(),
    /** SHA-256 (hex) of the fingerprint: the file carries the same, never the fingerprint. */
    fingerprintHash: text("fingerprint_hash").notNull(),
    kid: text("kid").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * A team's file (issue 57, point 3, from its page): it holds one of the team's floating seats
     * until it expires (a `seat_leases` row), not a device slot of the person who made it.
     */
    organizationId: text("organization_id").references(() => organization.id, {
      onDelete: "cascade",
    }),
  },
  (table) => [index("offline_licences_user_idx").on(table.userId, table.expiresAt)],
);

/** Every refresh token ever issued to a device (hashed): a second use of one revokes the device. */
export const desktopRefreshTokens = pgTable("desktop_refresh_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  deviceId: uuid("device_id")
    .notNull()
    .references(() => desktopDevices.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

/**
 * Which first-run checklist events (`onboarding_step` per step, `onboarding_complete` as
 * "complete") analytics has been given for a person: each once ever, whatever the browser or
 * visit (issue 34). A step is claimed by inserting its row; the one insert that succeeds reports it.
 */
export const onboardingReports = pgTable(
  "onboarding_reports",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    step: text("step").notNull(),
    reportedAt: timestamp("reported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.step] })],
);

/** Feature usage reported by the desktop app; the app's event id makes reports idempotent. */
export const desktopUsageEvents = pgTable(
  "desktop_usage_events",
  {
    deviceId: uuid("device_id")
      .notNull()
      .references(() => desktopDevices.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    feature: text("feature").notNull(),
    count: integer("count").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    appVersion: text("app_version").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.deviceId, table.eventId] }),
    index("desktop_usage_user_time_idx").on(table.userId, table.occurredAt),
  ],
);

/** Ed25519 keys that sign offline licences; the public halves are served at /.well-known/jwks.json. */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  /** `licence`: offline licences (JWKS); `update`: Sparkle update signatures (SUPublicEDKey). */
  purpose: text("purpose", { enum: ["licence", "update"] })
    .notNull()
    .default("licence"),
  publicJwk: jsonb("public_jwk").notNull(),
  privateJwk: jsonb("private_jwk").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type DesktopDevice = typeof desktopDevices.$inferSelect;

/* ---------------------------------------------------------------------------------------------
 * Billing. Razorpay is the source of truth; these tables are a verified mirror of it plus what
 * only we know (billing details, grants, the audit log). Money is integer paise throughout.
 * ------------------------------------------------------------------------------------------- */

/** The buyer details a GST tax invoice needs; edited at checkout and on /billing. */
/** The billing identity a person's and a team's profile share (new builders on every call). */
const billingIdentityColumns = () => ({
  name: text("name").notNull(),
  addressLine1: text("address_line1").notNull(),
  addressLine2: text("address_line2").notNull().default(""),
  city: text("city").notNull(),
  postalCode: text("postal_code").notNull(),
  /**
   * Two-digit GST state code; the name comes from the GST state table. "96" (the GST system's
   * "Foreign Country") for a buyer outside India, and only for one.
   */
  stateCode: text("state_code").notNull(),
  gstin: text("gstin"),
  /** ISO 3166-1 alpha-2: "IN" for a buyer in India; any other is a buyer abroad (issue 56). */
  countryCode: text("country_code").notNull().default("IN"),
  /** A buyer abroad's VAT or tax id, printed on the export invoice; never for a buyer in India. */
  taxId: text("tax_id"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A buyer abroad has the GST system's "Foreign Country" (96) for a state and no GSTIN; a buyer in
 * India never has either of those, nor a foreign tax id.
 */
function abroadChecks(
  name: string,
  table: {
    countryCode: AnyPgColumn;
    stateCode: AnyPgColumn;
    gstin: AnyPgColumn;
    taxId: AnyPgColumn;
  },
) {
  return [
    check(`${name}_country_code_check`, sql`${table.countryCode} ~ '^[A-Z]{2}$'`),
    check(
      `${name}_abroad_check`,
      sql`(${table.countryCode} = 'IN') = (${table.stateCode} <> '96') and (${table.countryCode} = 'IN' or ${table.gstin} is null) and (${table.countryCode} <> 'IN' or ${table.taxId} is null)`,
    ),
  ];
}

export const billingProfiles = pgTable(
  "billing_profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    ...billingIdentityColumns(),
  },
  (table) => [
    check("billing_profiles_state_code_check", sql`${table.stateCode} ~ '^[0-9]{2}$'`),
    ...abroadChecks("billing_profiles", table),
  ],
);

/**
 * A team's billing identity (issue 37): the company's legal name, address, state and GSTIN, as a
 * person's billing profile holds them; its tax invoices are made out to it. The team itself (name,
 * members, invitations) is Better Auth's organization plugin's.
 */
export const teamProfiles = pgTable(
  "team_profiles",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organization.id, { onDelete: "cascade" }),
    ...billingIdentityColumns(),
  },
  (table) => [
    check("team_profiles_state_code_check", sql`${table.stateCode} ~ '^[0-9]{2}$'`),
    ...abroadChecks("team_profiles", table),
  ],
);

export type TeamProfileRow = typeof teamProfiles.$inferSelect;

/**
 * Who holds one of a team's seats (issue 37, point 2): given when an invitation is accepted while
 * a seat is free, or by the owner or a billing manager. A seat gives Pro only while its holder is
 * a member and the team's subscription gives it; leaving or removal frees it.
 */
export const teamSeats = pgTable(
  "team_seats",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    assignedAt: timestamp("assigned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index("team_seats_user_idx").on(table.userId),
  ],
);

/** Which Razorpay plan sells which of our plans at which price (`npm run billing:sync-plans`). */
export const providerPlans = pgTable(
  "provider_plans",
  {
    planId: text("plan_id").notNull(),
    /** The currency the Razorpay plan charges in (decision 0060); rupees for every older row. */
    currency: text("currency").$type<Currency>().notNull().default("INR"),
    /**
     * What the plan charges per unit, in `currency`'s minor unit. The column keeps the name it had
     * when only rupees were sold.
     */
    amount: integer("amount_paise").notNull(),
    providerPlanId: text("provider_plan_id").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.planId, table.currency, table.amount] })],
);

export { SUBSCRIPTION_STATUSES };

/**
 * Why a subscription ended, or is set to end (issue 32). Four of them mean it grants nothing
 * from then on, whatever its period says (billing/entitlement): three because the time it covers
 * was never really paid — `duplicate` (the duplicate guard cancelled and refunded it), `refunded`
 * (the period it was in was refunded in full), `halted` (its renewal was never paid) — and
 * `operator-ended`, an operator's "cancel now" (issue 33), and `dispute-lost`, a period whose
 * payment the bank took back in a chargeback (issue 59). `operator` is an operator's "cancel at
 * the end of the period", which keeps Pro until then as the customer's own cancellation does.
 * Null: running, or ended at Razorpay without us (its dashboard, or its last cycle).
 */
export const SUBSCRIPTION_END_REASONS = [
  "customer",
  "switched",
  "duplicate",
  "refunded",
  "halted",
  "account-closed",
  "abandoned",
  "operator",
  "operator-ended",
  "dispute-lost",
] as const;
export type SubscriptionEndReason = (typeof SUBSCRIPTION_END_REASONS)[number];
/** The ends after which a subscription grants nothing; never replaced once set. */
export const GRANTS_NOTHING_END_REASONS = [
  "duplicate",
  "refunded",
  "halted",
  "operator-ended",
  "dispute-lost",
] as const satisfies readonly SubscriptionEndReason[];

/** A Razorpay subscription as last verified (webhook or fetch), owned by one user. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    providerSubscriptionId: text("provider_subscription_id").notNull().unique(),
    /** Null after the account was deleted: payment records outlive it (tax law). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    planId: text("plan_id").notNull(),
    providerPlanId: text("provider_plan_id").notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    currentStart: timestamp("current_start", { withTimezone: true }),
    currentEnd: timestamp("current_end", { withTimezone: true }),
    chargeAt: timestamp("charge_at", { withTimezone: true }),
    startAt: timestamp("start_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    paidCount: integer("paid_count").notNull().default(0),
    authAttempts: integer("auth_attempts").notNull().default(0),
    /** Razorpay's hosted page for this subscription (authorise again / change payment method). */
    shortUrl: text("short_url"),
    hasScheduledChanges: boolean("has_scheduled_changes").notNull().default(false),
    /** While paused: since when, and who paused it ("merchant": us; "customer": their UPI app). */
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    pausedBy: text("paused_by"),
    /**
     * A pause with an end (issue 59): the day it resumes by itself (a job, billing/pause-end),
     * after a notice mail. Null: paused until the customer resumes it, or not paused.
     */
    resumeAt: timestamp("resume_at", { withTimezone: true }),
    /**
     * How Razorpay charges it once authorised ("card", "upi", "emandate"): what a new payment
     * method (issue 59, point 3) will pay with before its first charge shows the card or VPA.
     */
    paymentMethod: text("payment_method"),
    /** Set by us when the buyer cancelled at the end of the period (Razorpay shows only "scheduled"). */
    cancelAtCycleEnd: boolean("cancel_at_cycle_end").notNull().default(false),
    cancelReason: text("cancel_reason"),
    endReason: text("end_reason", { enum: SUBSCRIPTION_END_REASONS }),
    /**
     * Why we asked Razorpay to cancel it, written before the request: the row takes it as its
     * end reason when it reads cancelled, from our call's answer or from the webhook, whichever
     * comes first (a webhook that overtakes the answer, or a process killed between the two,
     * never reads as "cancelled outside this site"). billing/cancel-at-razorpay.server.ts.
     */
    pendingEndReason: text("pending_end_reason", { enum: SUBSCRIPTION_END_REASONS }),
    /** A plan switch: the subscription this one replaces at the end of its period. */
    replacesSubscriptionId: uuid("replaces_subscription_id"),
    /** The checkout handler's verified payment id: "payment received, activating…" until a webhook. */
    checkoutPaymentId: text("checkout_payment_id"),
    checkoutVerifiedAt: timestamp("checkout_verified_at", { withTimezone: true }),
    /**
     * The buyer's first-party analytics id when they consented, so the funnel counts the payment
     * (our record, not the browser's `purchase` event) for the visitor who viewed pricing.
     */
    analyticsClientId: text("analytics_client_id"),
    /**
     * The coupon it was bought with (its Razorpay offer is linked to the subscription): the
     * invoices show the discount before tax (issue 36, point 8).
     */
    couponId: uuid("coupon_id").references(() => coupons.id, { onDelete: "restrict" }),
    /**
     * A team's seats (issue 37, point 2): the team that bought them, and how many (Razorpay's
     * `quantity`). A team subscription is nobody's own (`user_id` is null): its seats give Pro to
     * the members holding them (`team_seats`), and its invoices are made out to the team.
     */
    teamId: text("team_id").references(() => organization.id, { onDelete: "set null" }),
    seats: integer("seats").notNull().default(1),
    /**
     * What it charges in (its Razorpay plan's currency, issue 56): rupees for a buyer in India,
     * a foreign currency for a buyer abroad. Never changes: a buyer who moves buys anew.
     */
    currency: text("currency", { enum: CURRENCIES }).notNull().default("INR"),
    /**
     * A team's subscription: whether its seats are named (held by people) or floating (taken by
     * machines while they run, issue 57 point 2), and the overage allowance of floating seats in
     * percent over the seats. A change of seats carries both over (`markReplacing`).
     */
    seatMode: text("seat_mode", { enum: SEAT_MODES }).notNull().default("named"),
    overagePercent: integer("overage_percent").$type<OveragePercent>().notNull().default(0),
    /** When the provider state held here was read; an older read never overwrites a newer one. */
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("subscriptions_user_idx").on(table.userId),
    index("subscriptions_team_idx").on(table.teamId),
    index("subscriptions_status_idx").on(table.status),
    check("subscriptions_overage_percent_check", sql`${table.overagePercent} in (0, 25, 50, 100)`),
    check("subscriptions_seat_mode_check", sql`${table.seatMode} in ('named', 'floating')`),
  ],
);

/**
 * A machine's hold on one of a team's floating seats (issue 57, point 2; decision 0064): taken
 * by a check-in while fewer machines than the team's seats (and overage allowance) hold one,
 * renewed by each check-in until `expires_at`, ended by signing out, silence past `expires_at`,
 * leaving the team, Pro of one's own or the team's move to named seats. A lease is open while
 * `released_at` is null and `expires_at` is ahead; at most one open lease per machine and team.
 * Taking one runs under a lock on the team's row, so several instances never open more leases
 * than allowed.
 */
export const seatLeases = pgTable(
  "seat_leases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The machine that checks in; null for a lease held by a team's licence file. */
    deviceId: uuid("device_id").references(() => desktopDevices.id, { onDelete: "cascade" }),
    /**
     * A team's licence file for a machine without internet: the lease lasts until the file
     * expires, and nothing ends it sooner (the file cannot be revoked).
     */
    offlineLicenceId: uuid("offline_licence_id").references(() => offlineLicences.id, {
      onDelete: "cascade",
    }),
    acquiredAt: timestamp("acquired_at", { withTimezone: true }).notNull().defaultNow(),
    renewedAt: timestamp("renewed_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    releaseReason: text("release_reason", { enum: LEASE_END_REASONS }),
    /** Admitted beyond the seats by the overage allowance: shown to the owner, never charged. */
    overage: boolean("overage").notNull().default(false),
  },
  (table) => [
    uniqueIndex("seat_leases_open_idx")
      .on(table.organizationId, table.deviceId)
      .where(sql`${table.releasedAt} is null`),
    index("seat_leases_team_idx").on(table.organizationId, table.acquiredAt),
    index("seat_leases_device_idx").on(table.deviceId),
    check(
      "seat_leases_release_check",
      sql`(${table.releasedAt} is null) = (${table.releaseReason} is null)`,
    ),
    check(
      "seat_leases_holder_check",
      sql`(${table.deviceId} is null) <> (${table.offlineLicenceId} is null)`,
    ),
  ],
);

export type SeatLeaseRow = typeof seatLeases.$inferSelect;

/**
 * A machine refused a floating seat because all were taken (issue 57, point 2): the team page
 * lists who, so the owner knows when more seats would help.
 */
export const seatLeaseRefusals = pgTable(
  "seat_lease_refusals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: uuid("device_id").references(() => desktopDevices.id, { onDelete: "set null" }),
    seats: integer("seats").notNull(),
    allowed: integer("allowed").notNull(),
    refusedAt: timestamp("refused_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("seat_lease_refusals_team_idx").on(table.organizationId, table.refusedAt)],
);

/**
 * Seats added to a team mid-cycle (issue 37, point 3; decision 0054): the subscription that
 * carries the new number of seats from the current cycle's end, and the upfront amount its
 * authentication charges for the added seats over the rest of the current cycle. Its payment's
 * tax invoice names the seats and that period.
 */
export const teamSeatTopups = pgTable("team_seat_topups", {
  subscriptionId: uuid("subscription_id")
    .primaryKey()
    .references(() => subscriptions.id, { onDelete: "cascade" }),
  seatsAdded: integer("seats_added").notNull(),
  amountPaise: integer("amount_paise").notNull(),
  periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
  periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type TeamSeatTopupRow = typeof teamSeatTopups.$inferSelect;

/** Every payment Razorpay reported for a subscription; the Razorpay id makes it unique. */
export const payments = pgTable(
  "payments",
  {
    providerPaymentId: text("provider_payment_id").primaryKey(),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, {
      onDelete: "set null",
    }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The amount in `currency`'s minor unit (paise for rupees; the column's name is older). */
    amountPaise: integer("amount_paise").notNull(),
    /** Razorpay's currency of the payment: its subscription's plan's (one of ours, CURRENCIES). */
    currency: text("currency").$type<Currency>().notNull(),
    /**
     * What the payment is worth in rupees, as Razorpay reported it (issue 56, decision 0060): the
     * amount itself for a rupee payment, the payment's `base_amount` for one in another currency,
     * converted at the moment of payment. Null where Razorpay reported no conversion.
     */
    inrValuePaise: integer("inr_value_paise"),
    status: text("status").notNull(),
    method: text("method").notNull(),
    cardNetwork: text("card_network"),
    cardLast4: text("card_last4"),
    vpa: text("vpa"),
    amountRefundedPaise: integer("amount_refunded_paise").notNull().default(0),
    providerInvoiceId: text("provider_invoice_id"),
    /**
     * The end of the period this payment paid for (its Razorpay invoice's billing_end), when
     * known: a refund that leaves a subscription's current period with nothing paid ends it.
     */
    periodEnd: timestamp("period_end", { withTimezone: true }),
    errorDescription: text("error_description"),
    /** When Razorpay created the payment. */
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("payments_amount_check", sql`${table.amountPaise} >= 0`),
    check(
      "payments_refund_check",
      sql`${table.amountRefundedPaise} between 0 and ${table.amountPaise}`,
    ),
    index("payments_subscription_idx").on(table.subscriptionId),
    index("payments_user_idx").on(table.userId),
    index("payments_paid_at_idx").on(table.paidAt),
  ],
);

/** Refunds made from the admin area (and any Razorpay reports), unique on the Razorpay id. */
export const refunds = pgTable("refunds", {
  providerRefundId: text("provider_refund_id").primaryKey(),
  providerPaymentId: text("provider_payment_id")
    .notNull()
    .references(() => payments.providerPaymentId),
  /** In `currency`'s minor unit: Razorpay refunds in the payment's currency. */
  amountPaise: integer("amount_paise").notNull(),
  currency: text("currency").$type<Currency>().notNull().default("INR"),
  status: text("status").notNull(),
  reason: text("reason"),
  /**
   * The bank's reference for the refund (ARN for cards, RRN for UPI), from Razorpay's
   * `acquirer_data` once the refund is processed: what a customer quotes to trace it.
   */
  arn: text("arn"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Disputes (chargebacks) raised by customers' banks against payments, as Razorpay last reported
 * them (issue 59, point 4): stored from `payment.dispute.*` webhooks, processed like every
 * webhook. A lost one is settled once (`lost_settled_at`): its credit note is issued and the
 * period it paid for ends, as a refund's does.
 */
export const disputes = pgTable(
  "disputes",
  {
    providerDisputeId: text("provider_dispute_id").primaryKey(),
    providerPaymentId: text("provider_payment_id").notNull(),
    /** The subscription and customer the payment belongs to, when it is one of ours. */
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, {
      onDelete: "set null",
    }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** In `currency`'s minor unit. */
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull(),
    amountDeductedMinor: integer("amount_deducted_minor").notNull().default(0),
    status: text("status", { enum: DISPUTE_STATUSES }).notNull(),
    phase: text("phase"),
    reasonCode: text("reason_code"),
    reason: text("reason"),
    /** The evidence is due by then (Razorpay's `respond_by`). */
    respondBy: timestamp("respond_by", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    lostSettledAt: timestamp("lost_settled_at", { withTimezone: true }),
  },
  (table) => [
    index("disputes_payment_idx").on(table.providerPaymentId),
    check(
      "disputes_status_check",
      sql`${table.status} in ('open', 'under_review', 'won', 'lost', 'closed')`,
    ),
  ],
);
export type DisputeRow = typeof disputes.$inferSelect;

/**
 * The operator's cancellation flow for a paid plan (issue 59, point 1; decision 0071): the one
 * offer shown to a customer of that plan who opens "Cancel subscription", or none. A plan without
 * a row shows none.
 */
export const cancelFlows = pgTable("cancel_flows", {
  planId: text("plan_id").primaryKey(),
  offer: text("offer", { enum: CANCEL_OFFER_KINDS }),
  /** For a pause: the billing cycles it lasts (1–3). */
  pauseCycles: integer("pause_cycles"),
  /** For a discount: the coupon the new subscription is bought with. */
  couponId: uuid("coupon_id").references(() => coupons.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
export type CancelFlowRow = typeof cancelFlows.$inferSelect;

/**
 * One opening of the cancellation flow for a subscription: the offer shown (null: none), then
 * the reason given and what the customer did. One undecided visit per subscription at a time
 * (opening the page again is the same visit), so "shown" counts customers, not reloads.
 */
export const cancelFlowVisits = pgTable(
  "cancel_flow_visits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    planId: text("plan_id").notNull(),
    offer: text("offer", { enum: CANCEL_OFFER_KINDS }),
    /** The pause's cycles, or the coupon's code, as shown. */
    offerDetail: text("offer_detail"),
    shownAt: timestamp("shown_at", { withTimezone: true }).notNull().defaultNow(),
    reason: text("reason", { enum: CANCEL_REASONS }),
    reasonText: text("reason_text"),
    outcome: text("outcome", { enum: CANCEL_VISIT_OUTCOMES }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("cancel_flow_visits_open_idx")
      .on(table.subscriptionId)
      .where(sql`${table.outcome} is null`),
    index("cancel_flow_visits_shown_idx").on(table.shownAt),
  ],
);
export type CancelFlowVisitRow = typeof cancelFlowVisits.$inferSelect;

/**
 * A link in a billing mail that opens one subscription's billing page without a password (issue
 * 59, point 2): for billing actions only, until `expires_at`, and no more once used for a payment.
 * Only the token's SHA-256 is kept; every use is in the audit log.
 */
export const billingLinks = pgTable(
  "billing_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The mail it was sent in (its template). */
    sentWith: text("sent_with").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedForPaymentAt: timestamp("used_for_payment_at", { withTimezone: true }),
  },
  (table) => [index("billing_links_expires_idx").on(table.expiresAt)],
);
export type BillingLinkRow = typeof billingLinks.$inferSelect;

/**
 * The RBI reference rate of a day for a currency, as the operator entered it (issue 56; decision
 * 0061, CGST Rules r. 34(2)): the rupee value of an export paid on that India day when Razorpay
 * reported no conversion. In rupees per unit × 10,000 ("84.5025" is 845025): an integer, exactly.
 */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    currency: text("currency").$type<ForeignCurrency>().notNull(),
    /** The India day (YYYY-MM-DD) the rate is for. */
    day: text("day").notNull(),
    rateE4: integer("rate_e4").notNull(),
    enteredBy: text("entered_by").notNull(),
    enteredAt: timestamp("entered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.currency, table.day] }),
    check("exchange_rates_day_check", sql`${table.day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
    check("exchange_rates_rate_check", sql`${table.rateE4} > 0`),
  ],
);

/**
 * Every signature-verified webhook as received (raw body kept), stored before the 2xx reply.
 * The event id makes a redelivery a no-op.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    eventId: text("event_id").primaryKey(),
    event: text("event").notNull(),
    rawBody: text("raw_body").notNull(),
    /** The subscription and payment it is about, for the admin page. */
    providerSubscriptionId: text("provider_subscription_id"),
    providerPaymentId: text("provider_payment_id"),
    providerCreatedAt: timestamp("provider_created_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    /** How many times it was applied: 1 in normal life, more only through an admin replay. */
    processCount: integer("process_count").notNull().default(0),
    lastError: text("last_error"),
  },
  (table) => [
    index("webhook_events_subscription_idx").on(table.providerSubscriptionId),
    index("webhook_events_received_idx").on(table.receivedAt),
  ],
);

/**
 * Durable work: webhook processing, mail, reminders. A job is claimed with a lease
 * (`locked_until`, taken with SKIP LOCKED), so a crashed worker's job runs again elsewhere;
 * `dedupe_key` makes enqueueing the same work twice a no-op.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull().default({}),
    dedupeKey: text("dedupe_key").unique(),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(10),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("jobs_due_idx")
      .on(table.runAt)
      .where(sql`${table.completedAt} is null and ${table.failedAt} is null`),
  ],
);

/**
 * What the site mailed and whether it left (issue 33, point 5): one row per message, written by
 * `sendMail` after each try, so the operator can answer "I never got the mail" (subject, time,
 * sent or failing, and why). Never the body: it can hold a sign-in or reset link. The address is
 * stored lower-case; rows go with the account and after 12 months (privacy policy).
 */
export const MAIL_LOG_STATUSES = ["sent", "failed"] as const;
export const mailLog = pgTable(
  "mail_log",
  {
    /** The job's idempotency key (the Message-ID): every try of one mail is one row. */
    key: text("key").primaryKey(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    status: text("status", { enum: MAIL_LOG_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(1),
    lastError: text("last_error"),
    firstAttemptAt: timestamp("first_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("mail_log_recipient_idx").on(table.recipient, table.lastAttemptAt)],
);

/**
 * Every dedupe key a job was enqueued with: the gate `enqueueJob` passes first. Finished jobs are
 * pruned (their payloads and errors are large); their keys stay here, small, so the same work is
 * still never enqueued twice (a webhook body replayed, a refund confirmed again). Kept 400 days.
 */
export const jobDedupeKeys = pgTable("job_dedupe_keys", {
  key: text("key").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every webhook event id received: the gate of `receiveWebhook`. Event bodies are pruned 90 days
 * after processing; the ids stay (400 days), so a late redelivery is still a duplicate.
 */
export const webhookEventIds = pgTable("webhook_event_ids", {
  eventId: text("event_id").primaryKey(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A plan given without payment by an admin (goodwill, press, support), for a fixed time. */
export const entitlementGrants = pgTable(
  "entitlement_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: text("plan_id").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    reason: text("reason").notNull(),
    grantedBy: text("granted_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("entitlement_grants_user_idx").on(table.userId, table.endsAt)],
);

/**
 * The customer's own 7-day refund, once per account and once per mailbox (issue 53, finding 3):
 * without this it repeated forever (buy, refund, buy again). The mailbox is a keyed hash of its
 * normalised address, as the trials' is, and stays when the account is deleted, so a new account
 * on the same mailbox gets no second one (the refund policy says so); the desk handles the rest.
 */
export const selfRefunds = pgTable("self_refunds", {
  mailboxKey: text("mailbox_key").primaryKey(),
  userId: text("user_id")
    .unique()
    .references(() => users.id, { onDelete: "set null" }),
  providerPaymentId: text("provider_payment_id").notNull(),
  requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Free Pro trials without a card (issue 36, decision 0050): one per account and one per mailbox.
 * The Pro itself is an entitlement grant (reason "trial"), so every reader of the entitlement sees
 * it with no code of its own. The mailbox is kept as a keyed hash of its normalised address (dots
 * and +tags where the provider ignores them), and stays when the account is deleted: a new
 * account on the same mailbox gets no second trial (the privacy policy says so).
 */
export const TRIAL_SOURCES = ["site", "desktop"] as const;
/** The `entitlement_grants.reason` of a trial's grant. */
export const TRIAL_GRANT_REASON = "trial";
export const trials = pgTable(
  "trials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    mailboxKey: text("mailbox_key").notNull().unique(),
    grantId: uuid("grant_id").references(() => entitlementGrants.id, { onDelete: "set null" }),
    planId: text("plan_id").notNull(),
    source: text("source", { enum: TRIAL_SOURCES }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /**
     * The starting browser's analytics id, only when it had consented: the trial's end is then
     * recorded as its `trial_end` event (issue 36, point 10). Cleared when the account is erased.
     */
    analyticsClientId: text("analytics_client_id"),
    /** When its end was recorded (once per trial, whatever the job's retries). */
    endRecordedAt: timestamp("end_recorded_at", { withTimezone: true }),
    /**
     * Why it ended before its day (then `ends_at` is when it was ended), null for a trial that
     * ran its course: the account page and the end mail say it. Stored, not worked out from
     * `trial_machines`, whose rows go with the other account's trial and could also match a
     * computer signed in after this trial ended by itself.
     */
    endReason: text("end_reason", { enum: TRIAL_END_REASONS }),
  },
  (table) => [uniqueIndex("trials_user_key").on(table.userId)],
);

export type TrialRow = typeof trials.$inferSelect;

/**
 * The computers that have had a free trial (keyed hashes, as on `desktop_devices`): recorded for
 * every device signed in to the account when the trial starts or while it runs. A computer here
 * gives no second trial to another account. Goes with its trial (36 months after it ended).
 */
export const trialMachines = pgTable("trial_machines", {
  machineKey: text("machine_key").primaryKey(),
  trialId: uuid("trial_id")
    .notNull()
    .references(() => trials.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const COUPON_KINDS = ["percent", "flat"] as const;
export const COUPON_DURATIONS = ["once", "cycles", "forever"] as const;
export const OFFER_METHODS = ["any", "card", "upi"] as const;

/**
 * Coupon codes (issue 36, point 6; decision 0052). The discount is charged by the Razorpay offer
 * the operator made in Razorpay's Dashboard and linked here; the coupon holds the same terms so
 * pages can show the price before anyone pays, and the rules Razorpay cannot know (plans, first
 * purchase, per-customer limits). Never deleted once redeemed: disabled instead.
 */
export const coupons = pgTable("coupons", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Upper case, A–Z 0–9 and -; unique. */
  code: text("code").notNull().unique(),
  kind: text("kind", { enum: COUPON_KINDS }).notNull(),
  /** Whole percent (1–95) for "percent"; paise for "flat". */
  amount: integer("amount").notNull(),
  duration: text("duration", { enum: COUPON_DURATIONS }).notNull(),
  /** Charges discounted for "cycles" (2 or more); null otherwise. */
  durationCycles: integer("duration_cycles"),
  /** The paid plans it is for; empty: every paid plan. */
  planIds: jsonb("plan_ids").$type<string[]>().notNull().default([]),
  providerOfferId: text("provider_offer_id").notNull(),
  /** The payment method the Razorpay offer is limited to ("any": none). */
  offerMethod: text("offer_method", { enum: OFFER_METHODS }).notNull().default("any"),
  validFrom: timestamp("valid_from", { withTimezone: true }),
  validUntil: timestamp("valid_until", { withTimezone: true }),
  /** Redemptions in all; null: no limit. */
  maxRedemptions: integer("max_redemptions"),
  /** Redemptions per account and per mailbox. */
  perCustomer: integer("per_customer").notNull().default(1),
  /** Only for someone who has never paid for a subscription. */
  firstPurchaseOnly: boolean("first_purchase_only").notNull().default(true),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  // Who made or disabled it is in the audit log (coupon.create, coupon.disable).
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type CouponRow = typeof coupons.$inferSelect;

/**
 * A coupon taken at checkout. Reserved before Razorpay's subscription is created (under the
 * coupon row's lock, so limits hold with two checkouts at once) and linked to the subscription
 * once it exists; deleted if Razorpay refuses it. Until its subscription is paid it only holds
 * its place for half an hour from `created_at` (renewed when a retry reuses the checkout); paid,
 * it counts unless the subscription ends with nothing paid: coupons/redemptions.server.ts.
 */
export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The buyer's mailbox as a keyed hash (security/person-keys), for the per-customer limit. */
    mailboxKey: text("mailbox_key").notNull(),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("coupon_redemptions_coupon_idx").on(table.couponId),
    index("coupon_redemptions_subscription_idx").on(table.subscriptionId),
  ],
);

export type CouponRedemptionRow = typeof couponRedemptions.$inferSelect;

/** Each customer's referral code, made the first time their account shows their link. */
export const referralCodes = pgTable("referral_codes", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** 8 characters of Crockford base32, upper case: `/r/CODE`. */
  code: text("code").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const REFERRAL_VOID_REASONS = ["refunded", "account-deleted"] as const;

/**
 * Someone who signed up through a referral link (issue 36, point 9): once per referred account.
 * Their first captured payment is noted; past the refund window, unrefunded, the referrer gets
 * the configured days of Pro once (`rewardedAt`, the grant), or the referral is voided with why.
 */
export const referrals = pgTable(
  "referrals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    referrerUserId: text("referrer_user_id").references(() => users.id, { onDelete: "set null" }),
    referredUserId: text("referred_user_id")
      .unique()
      .references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    firstPaymentId: text("first_payment_id"),
    firstPaidAt: timestamp("first_paid_at", { withTimezone: true }),
    rewardedAt: timestamp("rewarded_at", { withTimezone: true }),
    rewardGrantId: uuid("reward_grant_id").references(() => entitlementGrants.id, {
      onDelete: "set null",
    }),
    rewardDays: integer("reward_days"),
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    voidReason: text("void_reason", { enum: REFERRAL_VOID_REASONS }),
  },
  (table) => [index("referrals_referrer_idx").on(table.referrerUserId)],
);

export type ReferralRow = typeof referrals.$inferSelect;

/** Every admin action on a customer's billing: who, what, when, and the state before and after. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorUserId: text("actor_user_id"),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetUserId: text("target_user_id"),
    target: text("target"),
    reason: text("reason"),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("audit_log_target_user_idx").on(table.targetUserId, table.createdAt)],
);

export const BACKUP_RUN_STATUSES = ["running", "succeeded", "failed"] as const;
export const BACKUP_TRIGGERS = ["schedule", "admin", "command"] as const;

/**
 * Every backup taken (docs/decisions/0049): when, how it was started, where it went, how big,
 * and why it failed. `/admin` shows the last success from here. A run still "running" long after
 * its job's time limit was cut short (a process killed): it counts as failed.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trigger: text("trigger", { enum: BACKUP_TRIGGERS }).notNull(),
    status: text("status", { enum: BACKUP_RUN_STATUSES }).notNull().default("running"),
    /** The file's name in its folder, once written. */
    fileName: text("file_name"),
    bytes: bigint("bytes", { mode: "number" }),
    rows: bigint("rows", { mode: "number" }),
    files: integer("files"),
    encrypted: boolean("encrypted").notNull().default(false),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [index("backup_runs_started_idx").on(table.startedAt)],
);

export type BackupRun = typeof backupRuns.$inferSelect;

export type BillingProfile = typeof billingProfiles.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;

/* ---------------------------------------------------------------------------------------------
 * GST tax invoices and credit notes. A document is a full copy as issued (`document`), never
 * updated; corrections are credit notes. Numbers come from one counter row per series and
 * financial year, taken in the transaction that stores the document, so there is no gap.
 * ------------------------------------------------------------------------------------------- */

/** Raw bytes (`bytea`), read as a Buffer from either engine (PGlite gives a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** The last number issued in each series, e.g. "invoice:26-27" → 42. */
export const invoiceSeries = pgTable("invoice_series", {
  series: text("series").primaryKey(),
  lastNumber: integer("last_number").notNull(),
});

export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["invoice", "credit_note"] }).notNull(),
    number: text("number").notNull().unique(),
    series: text("series").notNull(),
    sequence: integer("sequence").notNull(),
    /** Cleared when the account is deleted; the buyer's copy in `document` stays (the law). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    providerPaymentId: text("provider_payment_id"),
    /** A team's document (made out to the team): its owner and billing managers see it. */
    teamId: text("team_id").references(() => organization.id, { onDelete: "set null" }),
    /** The refund a credit note was issued for. */
    providerRefundId: text("provider_refund_id").unique(),
    /** The lost dispute (chargeback) a credit note was issued for. */
    providerDisputeId: text("provider_dispute_id").unique(),
    originalInvoiceId: uuid("original_invoice_id"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    b2b: boolean("b2b").notNull(),
    placeOfSupply: text("place_of_supply").notNull(),
    taxablePaise: integer("taxable_paise").notNull(),
    cgstPaise: integer("cgst_paise").notNull(),
    sgstPaise: integer("sgst_paise").notNull(),
    igstPaise: integer("igst_paise").notNull(),
    totalPaise: integer("total_paise").notNull(),
    /**
     * An export's currency and its amount in that currency's minor unit (issue 56): the paise
     * columns above hold its value in rupees at the rate the document prints.
     */
    currency: text("currency", { enum: CURRENCIES }).notNull().default("INR"),
    currencyAmount: integer("currency_amount"),
    /** The InvoiceDocument as issued: supplier, buyer, lines, taxes, totals. */
    document: jsonb("document").$type<InvoiceDocument>().notNull(),
    /**
     * The PDF as issued, rendered once in the issuing transaction and served as stored (checked
     * against `pdf_sha256` on every read). Null only for documents issued before PDFs were
     * stored: those are rendered and stored on their first read, once.
     */
    pdf: bytea("pdf"),
    /** SHA-256 of `pdf`, 64 lowercase hex digits; set with it. */
    pdfSha256: text("pdf_sha256"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("invoices_series_sequence_key").on(table.series, table.sequence),
    // One tax invoice per payment, however often its event is delivered or replayed.
    uniqueIndex("invoices_payment_invoice_key")
      .on(table.providerPaymentId)
      .where(sql`${table.kind} = 'invoice'`),
    check("invoices_kind_check", sql`${table.kind} in ('invoice', 'credit_note')`),
    check(
      "invoices_currency_check",
      sql`(${table.currency} = 'INR') = (${table.currencyAmount} is null)`,
    ),
    check("invoices_number_check", sql`${table.number} ~ '^[A-Za-z0-9/-]{1,16}$'`),
    check("invoices_pdf_check", sql`(${table.pdf} is null) = (${table.pdfSha256} is null)`),
    check("invoices_pdf_sha256_check", sql`${table.pdfSha256} ~ '^[0-9a-f]{64}$'`),
    check(
      "invoices_total_check",
      sql`${table.totalPaise} = ${table.taxablePaise} + ${table.cgstPaise} + ${table.sgstPaise} + ${table.igstPaise}`,
    ),
    index("invoices_user_idx").on(table.userId, table.issuedAt),
    index("invoices_team_idx").on(table.teamId, table.issuedAt),
    index("invoices_issued_idx").on(table.issuedAt),
  ],
);

const { pdf: _pdf, pdfSha256: _pdfSha256, ...invoiceMetadata } = getTableColumns(invoices);
/**
 * Every column of an invoice but its stored PDF: lists and lookups select these, so the bytes
 * are read only when a PDF is served (`app/.server/invoices/stored-pdf.server.ts`).
 */
export const invoiceColumns = invoiceMetadata;
export type InvoiceRow = Omit<typeof invoices.$inferSelect, "pdf" | "pdfSha256">;
