ALTER TABLE "refunds" ADD COLUMN "currency" text DEFAULT 'INR' NOT NULL;--> statement-breakpoint
UPDATE "refunds" SET "currency" = "payments"."currency" FROM "payments" WHERE "payments"."provider_payment_id" = "refunds"."provider_payment_id";
