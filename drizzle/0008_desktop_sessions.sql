ALTER TABLE "one_time_tokens" DROP CONSTRAINT "one_time_tokens_purpose_check";--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "desktop_device_id" text;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "step_up_at" timestamp;--> statement-breakpoint
CREATE INDEX "session_desktopDeviceId_idx" ON "session" USING btree ("desktop_device_id");--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_purpose_check" CHECK ("one_time_tokens"."purpose" in ('desktop_handoff', 'web_session', 'delete_account'));