CREATE TABLE "disputes" (
	"provider_dispute_id" text PRIMARY KEY NOT NULL,
	"provider_payment_id" text NOT NULL,
	"subscription_id" uuid,
	"user_id" text,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"amount_deducted_minor" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"phase" text,
	"reason_code" text,
	"reason" text,
	"respond_by" timestamp with time zone,
	"opened_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lost_settled_at" timestamp with time zone,
	CONSTRAINT "disputes_status_check" CHECK ("disputes"."status" in ('open', 'under_review', 'won', 'lost', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "provider_dispute_id" text;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_payment_idx" ON "disputes" USING btree ("provider_payment_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_provider_dispute_id_unique" UNIQUE("provider_dispute_id");