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
