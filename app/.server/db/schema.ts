/**
 * The one database schema of the product: every table, its relations and inferred types.
 * Both engines (PGlite embedded, PostgreSQL server) run the migrations generated from this file
 * (`npm run db:generate`), so write only what PostgreSQL 15 accepts.
 *
 * Identity tables are generated from Better Auth's own definitions (`npm run db:auth-schema`,
 * from app/.server/auth/options.ts) into auth-schema.ts; edit the options, not that file.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { user as users } from "./auth-schema";

export * from "./auth-schema";

export type UserRow = typeof users.$inferSelect;

/** Desktop app versions; a version is published once and never changes. */
export const releases = pgTable(
  "releases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    version: text("version").notNull().unique(),
    channel: text("channel", { enum: ["stable", "beta"] })
      .notNull()
      .default("stable"),
    notes: text("notes").notNull().default(""),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("releases_channel_check", sql`${table.channel} in ('stable', 'beta')`),
    index("releases_channel_published_idx").on(table.channel, table.publishedAt),
  ],
);

/** One installer of a release: stored under DATA_DIR/releases (storage_key) or hosted elsewhere. */
export const releaseAssets = pgTable(
  "release_assets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    releaseId: uuid("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: ["mac", "windows"] }).notNull(),
    arch: text("arch").notNull().default("universal"),
    fileName: text("file_name").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key"),
    externalUrl: text("external_url"),
    downloadCount: integer("download_count").notNull().default(0),
  },
  (table) => [
    unique("release_assets_release_platform_arch_key").on(
      table.releaseId,
      table.platform,
      table.arch,
    ),
    check("release_assets_platform_check", sql`${table.platform} in ('mac', 'windows')`),
    check(
      "release_assets_location_check",
      sql`${table.storageKey} is not null or ${table.externalUrl} is not null`,
    ),
    check("release_assets_sha256_check", sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

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
  (table) => [index("analytics_events_name_time_idx").on(table.name, table.occurredAt)],
);

/** Fixed-window counters for the site's own rate limits (feedback, events), shared by instances. */
export const rateLimitHits = pgTable("rate_limit_hits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
});

export type Release = typeof releases.$inferSelect;
export type ReleaseAsset = typeof releaseAssets.$inferSelect;

/**
 * Single-use tokens of the desktop handoff, stored only as SHA-256 hashes. `desktop_handoff`:
 * web → app (bound to a PKCE challenge and redirect URI); `web_session`: app → web sign-in.
 */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose", { enum: ["desktop_handoff", "web_session"] }).notNull(),
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
      sql`${table.purpose} in ('desktop_handoff', 'web_session')`,
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
  },
  (table) => [index("desktop_devices_user_idx").on(table.userId)],
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
  publicJwk: jsonb("public_jwk").notNull(),
  privateJwk: jsonb("private_jwk").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type DesktopDevice = typeof desktopDevices.$inferSelect;
