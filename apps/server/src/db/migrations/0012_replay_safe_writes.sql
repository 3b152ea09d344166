-- Replay-safe writes (issue 23). Depends only on tables of 0000-0007, so it applies whatever number it gets.
-- The Idempotency-Keys of resource writes: claimed in the write's own transaction, kept 24 hours.
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_index" ON "idempotency_keys" USING btree ("created_at");
--> statement-breakpoint
-- A record's version is its updated_at (the ETag that If-Match names), so every update must move it
-- forward, at the milliseconds a client sees: two writes within one millisecond, an instance whose
-- clock is behind, or a writer that leaves updated_at alone would otherwise keep a stale version
-- looking current.
CREATE FUNCTION hornada_advance_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := date_trunc('milliseconds', OLD.updated_at) + interval '1 millisecond';
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_advance_updated_at" BEFORE UPDATE ON "users" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "product_collections_advance_updated_at" BEFORE UPDATE ON "product_collections" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "brands_advance_updated_at" BEFORE UPDATE ON "brands" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "products_advance_updated_at" BEFORE UPDATE ON "products" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "ingredients_advance_updated_at" BEFORE UPDATE ON "ingredients" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "recipes_advance_updated_at" BEFORE UPDATE ON "recipes" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "b2b_clients_advance_updated_at" BEFORE UPDATE ON "b2b_clients" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
--> statement-breakpoint
CREATE TRIGGER "orders_advance_updated_at" BEFORE UPDATE ON "orders" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
