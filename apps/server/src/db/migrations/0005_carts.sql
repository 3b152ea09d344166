CREATE TABLE "carts" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	"session_hash" text,
	"customer_id" text,
	"items" jsonb NOT NULL,
	"contact" jsonb,
	"fulfillment" text DEFAULT 'delivery' NOT NULL,
	"address" jsonb,
	"due_date" date,
	"window" text,
	"notes" text
);
--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carts_customer_id_company_id_updated_at_index" ON "carts" USING btree ("customer_id","company_id","updated_at");