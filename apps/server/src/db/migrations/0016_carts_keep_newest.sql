-- Five open carts a holder (issue 23, hole 5; CART_OPEN_PER_HOLDER) kept by the database, in the cart's
-- own INSERT: one round trip a cart instead of the insert and a read after it (bench:orders).
-- The cleanup of carts untouched for 30 days reads a BRIN index: rows arrive in updated_at order, and a
-- BRIN costs next to nothing on each cart written, where the btree cost an index entry a write.
DROP INDEX "carts_updated_at_index";--> statement-breakpoint
CREATE INDEX "carts_updated_at_index" ON "carts" USING brin ("updated_at");--> statement-breakpoint
-- After a cart is inserted, the holder's open carts beyond the newest TG_ARGV[0] are closed, the one
-- written longest ago first. The holder's lock (until commit) makes creations from one holder take
-- turns; each statement of a plpgsql function reads a fresh snapshot, so the next one in turn sees the
-- carts committed before it, and the newest five are never beyond anyone's five.
CREATE FUNCTION hornada_keep_newest_carts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keep integer := TG_ARGV[0]::integer;
  beyond text;
BEGIN
  -- Two plain reads on the holder's index, each cart beyond closed by its key: the plan a function
  -- caches stays on the indexes however small the table was when it was made (a join's plan did not).
  IF NEW.customer_id IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(727292, hashtext(NEW.company_id || '|c|' || NEW.customer_id));
    FOR beyond IN
      SELECT c.id FROM carts c
       WHERE c.customer_id = NEW.customer_id AND c.company_id = NEW.company_id AND c.deleted_at IS NULL
       -- Ties (carts written within one clock reading) go by the writing transaction: age(xmin) is
       -- smaller for the later write, and wraparound-safe.
       ORDER BY c.updated_at DESC, age(c.xmin)
       OFFSET keep
    LOOP
      UPDATE carts SET deleted_at = NEW.created_at, updated_at = NEW.created_at
       WHERE id = beyond AND deleted_at IS NULL;
    END LOOP;
  ELSIF NEW.session_hash IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(727292, hashtext(NEW.company_id || '|s|' || NEW.session_hash));
    FOR beyond IN
      SELECT c.id FROM carts c
       WHERE c.session_hash = NEW.session_hash AND c.company_id = NEW.company_id AND c.deleted_at IS NULL
       ORDER BY c.updated_at DESC, age(c.xmin)
       OFFSET keep
    LOOP
      UPDATE carts SET deleted_at = NEW.created_at, updated_at = NEW.created_at
       WHERE id = beyond AND deleted_at IS NULL;
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER carts_keep_newest AFTER INSERT ON carts
  FOR EACH ROW EXECUTE FUNCTION hornada_keep_newest_carts(5);
