CREATE TABLE "order_counters" (
	"company_id" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"number" integer NOT NULL,
	"channel" text NOT NULL,
	"customer_id" text,
	"b2b_client_id" text,
	"cart_id" text,
	"idempotency_key" text,
	"request_hash" text,
	"contact" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"subtotal" integer NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"delivery_fee" integer NOT NULL,
	"total" integer NOT NULL,
	"fulfillment" text NOT NULL,
	"address" jsonb,
	"due_date" timestamp with time zone NOT NULL,
	"window" text,
	"preparation_date" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"payment_status" text NOT NULL,
	"payment_method" text NOT NULL,
	"payment" jsonb,
	"delivery_assistant_id" text,
	"route_position" integer,
	"produced_quantities" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cash_collected" integer,
	"completed_at" timestamp with time zone,
	"cancel_reason" text,
	"notes" text,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"contact_name" text GENERATED ALWAYS AS (contact->>'name') STORED,
	"contact_phone" text GENERATED ALWAYS AS (contact->>'phone') STORED,
	"number_text" text GENERATED ALWAYS AS (number::text) STORED
);
--> statement-breakpoint
ALTER TABLE "order_counters" ADD CONSTRAINT "order_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_company_number_key" ON "orders" USING btree ("company_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_cart_key" ON "orders" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "orders_company_id_created_at_index" ON "orders" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_company_id_due_date_window_index" ON "orders" USING btree ("company_id","due_date","window");--> statement-breakpoint
CREATE INDEX "orders_customer_id_index" ON "orders" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "orders_delivery_assistant_id_index" ON "orders" USING btree ("delivery_assistant_id");