ALTER TABLE "payments" ADD COLUMN "inr_value_paise" integer;--> statement-breakpoint
UPDATE "payments" SET "inr_value_paise" = "amount_paise" WHERE "currency" = 'INR';
