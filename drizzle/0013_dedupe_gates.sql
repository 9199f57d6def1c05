CREATE TABLE "job_dedupe_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_event_ids" (
	"event_id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "job_dedupe_keys" ("key", "created_at") SELECT "dedupe_key", "created_at" FROM "jobs" WHERE "dedupe_key" IS NOT NULL ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "webhook_event_ids" ("event_id", "received_at") SELECT "event_id", "received_at" FROM "webhook_events" ON CONFLICT DO NOTHING;
