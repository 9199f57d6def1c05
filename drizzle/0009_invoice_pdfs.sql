ALTER TABLE "invoices" ADD COLUMN "pdf" "bytea";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "pdf_sha256" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_pdf_check" CHECK (("invoices"."pdf" is null) = ("invoices"."pdf_sha256" is null));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_pdf_sha256_check" CHECK ("invoices"."pdf_sha256" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
-- An issued document stays as it is; its PDF may be stored once, where none was stored yet (a
-- document issued before this migration gets it on its first download), and never replaced.
CREATE OR REPLACE FUNCTION "invoices_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'issued invoices and credit notes cannot be deleted';
  END IF;
  IF (to_jsonb(NEW) - 'user_id' - 'pdf' - 'pdf_sha256')
       IS DISTINCT FROM (to_jsonb(OLD) - 'user_id' - 'pdf' - 'pdf_sha256')
     OR (NEW.user_id IS DISTINCT FROM OLD.user_id AND NEW.user_id IS NOT NULL)
     OR (OLD.pdf IS NOT NULL
         AND (NEW.pdf IS DISTINCT FROM OLD.pdf OR NEW.pdf_sha256 IS DISTINCT FROM OLD.pdf_sha256)) THEN
    RAISE EXCEPTION 'issued invoices and credit notes cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
