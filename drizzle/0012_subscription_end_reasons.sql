ALTER TABLE "payments" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "end_reason" text;--> statement-breakpoint
-- Until now a payment's period was kept only in its invoice document: a subscription's latest charge paid its current period.
UPDATE "payments" p SET "period_end" = s."current_end" FROM "subscriptions" s WHERE p."subscription_id" = s."id" AND p."provider_payment_id" = (SELECT q."provider_payment_id" FROM "payments" q WHERE q."subscription_id" = s."id" AND q."status" IN ('captured', 'refunded') ORDER BY q."paid_at" DESC LIMIT 1);--> statement-breakpoint
UPDATE "subscriptions" SET "end_reason" = CASE WHEN "cancel_reason" = 'switched plan' THEN 'switched' ELSE 'customer' END WHERE ("status" IN ('cancelled', 'completed') AND "cancel_reason" IS NOT NULL) OR "cancel_at_cycle_end";
