-- An issued document stays as it is (0009): now a team's (issue 37) as well. Like its buyer's
-- account, the team it was issued to may go (the last member's account deleted): the link is
-- cleared, never changed to another team; the buyer's copy in the document stays.
CREATE OR REPLACE FUNCTION "invoices_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'issued invoices and credit notes cannot be deleted';
  END IF;
  IF (to_jsonb(NEW) - 'user_id' - 'team_id' - 'pdf' - 'pdf_sha256')
       IS DISTINCT FROM (to_jsonb(OLD) - 'user_id' - 'team_id' - 'pdf' - 'pdf_sha256')
     OR (NEW.user_id IS DISTINCT FROM OLD.user_id AND NEW.user_id IS NOT NULL)
     OR (NEW.team_id IS DISTINCT FROM OLD.team_id AND NEW.team_id IS NOT NULL)
     OR (OLD.pdf IS NOT NULL
         AND (NEW.pdf IS DISTINCT FROM OLD.pdf OR NEW.pdf_sha256 IS DISTINCT FROM OLD.pdf_sha256)) THEN
    RAISE EXCEPTION 'issued invoices and credit notes cannot be changed';
  END IF;
  RETURN NEW;
END;
$$;
