CREATE TABLE "cancel_flow_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"plan_id" text NOT NULL,
	"offer" text,
	"offer_detail" text,
	"shown_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"reason_text" text,
	"outcome" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cancel_flows" (
	"plan_id" text PRIMARY KEY NOT NULL,
	"offer" text,
	"pause_cycles" integer,
	"coupon_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "resume_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cancel_flow_visits" ADD CONSTRAINT "cancel_flow_visits_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cancel_flows" ADD CONSTRAINT "cancel_flows_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cancel_flow_visits_open_idx" ON "cancel_flow_visits" USING btree ("subscription_id") WHERE "cancel_flow_visits"."outcome" is null;--> statement-breakpoint
CREATE INDEX "cancel_flow_visits_shown_idx" ON "cancel_flow_visits" USING btree ("shown_at");