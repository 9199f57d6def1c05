ALTER TABLE "seat_leases" ALTER COLUMN "device_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "offline_licences" ADD COLUMN "organization_id" text;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD COLUMN "offline_licence_id" uuid;--> statement-breakpoint
ALTER TABLE "offline_licences" ADD CONSTRAINT "offline_licences_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_offline_licence_id_offline_licences_id_fk" FOREIGN KEY ("offline_licence_id") REFERENCES "public"."offline_licences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_leases" ADD CONSTRAINT "seat_leases_holder_check" CHECK (("seat_leases"."device_id" is null) <> ("seat_leases"."offline_licence_id" is null));