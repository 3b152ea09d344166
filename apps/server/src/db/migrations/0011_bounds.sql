-- Bounds on what one holder books (issue 23): who placed a web order and from where (hashes only),
-- the phone as one key however it was written, and the carts' indexes for five open carts a holder
-- and the cleanup of carts untouched for 30 days.
ALTER TABLE "orders" ADD COLUMN "holder_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "origin_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "phone_key" text GENERATED ALWAYS AS (right(regexp_replace(contact->>'phone', '[^0-9]', '', 'g'), 10)) STORED;--> statement-breakpoint
CREATE INDEX "carts_session_hash_company_id_index" ON "carts" USING btree ("session_hash","company_id");--> statement-breakpoint
CREATE INDEX "carts_updated_at_index" ON "carts" USING btree ("updated_at");