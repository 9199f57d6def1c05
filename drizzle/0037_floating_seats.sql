CREATE TABLE "seat_lease_refusals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"device_id" uuid,
	"seats" integer NOT NULL,
	"allowed" integer NOT NULL,
	"refused_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"device_id" uuid NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"release_reason" text,
	"overage" boolean DEFAULT false NOT NULL,
	CONSTRAINT "seat_leases_release_check" CHECK (("seat_leases"."released_at" is null) = ("seat_leases"."release_reason" is null))
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "seat_mode" text DEFAULT 'named' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "overage_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "seat_lease_refusals" ADD CONSTRAINT "seat_lease_refusals_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_lease_refusals" ADD CONSTRAINT "seat_lease_refusals_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_lease_refusals" ADD CONSTRAINT "seat_lease_refusals_device_id_desktop_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."desktop_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_device_id_desktop_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."desktop_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seat_lease_refusals_team_idx" ON "seat_lease_refusals" USING btree ("organization_id","refused_at");--> statement-breakpoint
CREATE UNIQUE INDEX "seat_leases_open_idx" ON "seat_leases" USING btree ("organization_id","device_id") WHERE "seat_leases"."released_at" is null;--> statement-breakpoint
CREATE INDEX "seat_leases_team_idx" ON "seat_leases" USING btree ("organization_id","acquired_at");--> statement-breakpoint
CREATE INDEX "seat_leases_device_idx" ON "seat_leases" USING btree ("device_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_overage_percent_check" CHECK ("subscriptions"."overage_percent" in (0, 25, 50, 100));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_seat_mode_check" CHECK ("subscriptions"."seat_mode" in ('named', 'floating'));