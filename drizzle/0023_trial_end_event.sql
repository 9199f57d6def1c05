ALTER TABLE "trials" ADD COLUMN "analytics_client_id" text;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "end_recorded_at" timestamp with time zone;