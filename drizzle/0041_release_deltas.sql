ALTER TABLE "release_assets" DROP CONSTRAINT "release_assets_release_slot_key";--> statement-breakpoint
ALTER TABLE "release_assets" DROP CONSTRAINT "release_assets_kind_check";--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "from_version" text;--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "package_id" text;--> statement-breakpoint
ALTER TABLE "release_assets" ADD COLUMN "sha1" text;--> statement-breakpoint
ALTER TABLE "release_assets" ADD CONSTRAINT "release_assets_release_slot_key" UNIQUE NULLS NOT DISTINCT("release_id","platform","arch","kind","updater","from_version");--> statement-breakpoint
ALTER TABLE "release_assets" ADD CONSTRAINT "release_assets_updater_check" CHECK ("release_assets"."updater" is null or "release_assets"."updater" in ('electron', 'tauri', 'sparkle', 'velopack'));--> statement-breakpoint
ALTER TABLE "release_assets" ADD CONSTRAINT "release_assets_kind_check" CHECK ("release_assets"."kind" in ('installer', 'update', 'blockmap', 'delta'));