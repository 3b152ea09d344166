CREATE TABLE "standing_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"b2b_client_id" text NOT NULL,
	"weekdays" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"fulfillment" text NOT NULL,
	"window" text,
	"notes" text,
	"starts_on" text NOT NULL,
	"ends_on" text,
	"skip_dates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "standing_order_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "standing_day" text;--> statement-breakpoint
ALTER TABLE "standing_orders" ADD CONSTRAINT "standing_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "standing_orders_company_id_created_at_index" ON "standing_orders" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "standing_orders_b2b_client_id_index" ON "standing_orders" USING btree ("b2b_client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_standing_day_key" ON "orders" USING btree ("standing_order_id","standing_day");--> statement-breakpoint
-- Versions move forward on every update (If-Match), as 0012 made them for the other resources.
CREATE TRIGGER "standing_orders_advance_updated_at" BEFORE UPDATE ON "standing_orders" FOR EACH ROW
  WHEN (date_trunc('milliseconds', NEW.updated_at) <= date_trunc('milliseconds', OLD.updated_at))
  EXECUTE FUNCTION hornada_advance_updated_at();
