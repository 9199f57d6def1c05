ALTER TABLE "releases" ADD COLUMN "informational" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "minimum_autoupdate_version" text;