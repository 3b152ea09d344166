ALTER TABLE "orders" ADD COLUMN "geo_source" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "geo_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_geocode_queue" ON "orders" USING btree ("due_date") WHERE "orders"."geo_source" IS NULL AND "orders"."geo_checked_at" IS NULL AND "orders"."address" IS NOT NULL AND "orders"."deleted_at" IS NULL;--> statement-breakpoint
-- A point already on an order was placed by a person (at checkout or by staff) or came with the demo.
UPDATE "orders" SET "geo_source" = 'pinned' WHERE "address"->>'lat' IS NOT NULL AND "address"->>'lng' IS NOT NULL;
