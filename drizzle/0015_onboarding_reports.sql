CREATE TABLE "onboarding_reports" (
	"user_id" text NOT NULL,
	"step" text NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "onboarding_reports_user_id_step_pk" PRIMARY KEY("user_id","step")
);
--> statement-breakpoint
ALTER TABLE "onboarding_reports" ADD CONSTRAINT "onboarding_reports_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;