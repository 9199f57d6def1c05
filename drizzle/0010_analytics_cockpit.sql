CREATE TABLE "analytics_daily" (
	"day" text NOT NULL,
	"metric" text NOT NULL,
	"dim" text DEFAULT '' NOT NULL,
	"dim2" text DEFAULT '' NOT NULL,
	"events" integer NOT NULL,
	"visitors" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "analytics_daily_day_metric_dim_dim2_pk" PRIMARY KEY("day","metric","dim","dim2"),
	CONSTRAINT "analytics_daily_day_check" CHECK ("analytics_daily"."day" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
);
--> statement-breakpoint
CREATE TABLE "analytics_rolled_days" (
	"day" text PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_rolled_days_day_check" CHECK ("analytics_rolled_days"."day" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
);
--> statement-breakpoint
DROP INDEX "analytics_events_name_time_idx";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "analytics_client_id" text;--> statement-breakpoint
CREATE INDEX "analytics_daily_metric_day_idx" ON "analytics_daily" USING btree ("metric","day");--> statement-breakpoint
CREATE INDEX "analytics_events_name_time_client_idx" ON "analytics_events" USING btree ("name","occurred_at","client_id");--> statement-breakpoint
CREATE INDEX "analytics_events_time_idx" ON "analytics_events" USING btree ("occurred_at");