CREATE TABLE "trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"mailbox_key" text NOT NULL,
	"grant_id" uuid,
	"plan_id" text NOT NULL,
	"source" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	CONSTRAINT "trials_mailbox_key_unique" UNIQUE("mailbox_key")
);
--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_grant_id_entitlement_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."entitlement_grants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trials_user_key" ON "trials" USING btree ("user_id");