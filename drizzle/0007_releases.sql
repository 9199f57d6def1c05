CREATE TABLE "admin_api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "admin_api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "app_version_daily_counts" (
	"day" text NOT NULL,
	"version" text NOT NULL,
	"platform" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "app_version_daily_counts_day_version_platform_pk" PRIMARY KEY("day","version","platform")
);
--> statement-breakpoint
CREATE TABLE "release_daily_counts" (
	"day" text NOT NULL,
	"version" text NOT NULL,
	"platform" text NOT NULL,
	"arch" text NOT NULL,
	"channel" text NOT NULL,
	"event" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "release_daily_counts_day_version_platform_arch_channel_event_pk" PRIMARY KEY("day","version","platform","arch","channel","event"),
	CONSTRAINT "release_daily_counts_day_check" CHECK ("release_daily_counts"."day" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
);
--> statement-breakpoint
CREATE TABLE "update_policies" (
	"platform" text PRIMARY KEY NOT NULL,
	"minimum_version" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "release_assets" DROP CONSTRAINT "release_assets_release_platform_arch_key";--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "kind" text DEFAULT 'installer' NOT NULL;--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "updater" text;--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "sha512" text;--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "signature" text;--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "ed_signature" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "rollout_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "critical" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "minimum_system_version" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "purpose" text DEFAULT 'licence' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_api_tokens" ADD CONSTRAINT "admin_api_tokens_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_assets" ADD CONSTRAINT "release_assets_release_file_key" UNIQUE("release_id","file_name");--> statement-breakpoint
ALTER TABLE "release_assets" ADD CONSTRAINT "release_assets_release_slot_key" UNIQUE NULLS NOT DISTINCT("release_id","platform","arch","kind","updater");--> statement-breakpoint
ALTER TABLE "release_assets" ADD CONSTRAINT "release_assets_kind_check" CHECK ("release_assets"."kind" in ('installer', 'update', 'blockmap'));--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_status_check" CHECK ("releases"."status" in ('draft', 'published', 'pulled'));--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_rollout_check" CHECK ("releases"."rollout_percent" between 0 and 100);