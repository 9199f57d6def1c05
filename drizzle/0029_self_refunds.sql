CREATE TABLE "self_refunds" (
	"mailbox_key" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"provider_payment_id" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "self_refunds_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "self_refunds" ADD CONSTRAINT "self_refunds_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;