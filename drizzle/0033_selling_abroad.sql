ALTER TABLE "billing_profiles" ADD COLUMN "country_code" text DEFAULT 'IN' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "currency" text DEFAULT 'INR' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "currency_amount" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "currency" text DEFAULT 'INR' NOT NULL;--> statement-breakpoint
ALTER TABLE "team_profiles" ADD COLUMN "country_code" text DEFAULT 'IN' NOT NULL;--> statement-breakpoint
ALTER TABLE "team_profiles" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_country_code_check" CHECK ("billing_profiles"."country_code" ~ '^[A-Z]{2}$');--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_abroad_check" CHECK (("billing_profiles"."country_code" = 'IN') = ("billing_profiles"."state_code" <> '96') and ("billing_profiles"."country_code" = 'IN' or "billing_profiles"."gstin" is null) and ("billing_profiles"."country_code" <> 'IN' or "billing_profiles"."tax_id" is null));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_currency_check" CHECK (("invoices"."currency" = 'INR') = ("invoices"."currency_amount" is null));--> statement-breakpoint
ALTER TABLE "team_profiles" ADD CONSTRAINT "team_profiles_country_code_check" CHECK ("team_profiles"."country_code" ~ '^[A-Z]{2}$');--> statement-breakpoint
ALTER TABLE "team_profiles" ADD CONSTRAINT "team_profiles_abroad_check" CHECK (("team_profiles"."country_code" = 'IN') = ("team_profiles"."state_code" <> '96') and ("team_profiles"."country_code" = 'IN' or "team_profiles"."gstin" is null) and ("team_profiles"."country_code" <> 'IN' or "team_profiles"."tax_id" is null));