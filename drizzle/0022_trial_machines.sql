CREATE TABLE "trial_machines" (
	"machine_key" text PRIMARY KEY NOT NULL,
	"trial_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "desktop_devices" ADD COLUMN "machine_key" text;--> statement-breakpoint
ALTER TABLE "trial_machines" ADD CONSTRAINT "trial_machines_trial_id_trials_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trials"("id") ON DELETE cascade ON UPDATE no action;