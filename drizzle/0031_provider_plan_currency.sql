ALTER TABLE "provider_plans" ADD COLUMN "currency" text DEFAULT 'INR' NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_plans" DROP CONSTRAINT "provider_plans_plan_id_amount_paise_pk";--> statement-breakpoint
ALTER TABLE "provider_plans" ADD CONSTRAINT "provider_plans_plan_id_currency_amount_paise_pk" PRIMARY KEY("plan_id","currency","amount_paise");
