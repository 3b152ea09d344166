CREATE TABLE "payment_sandbox_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"amount_in_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"redirect_url" text NOT NULL,
	"event_attempts" integer DEFAULT 0 NOT NULL,
	"event_due_at" timestamp with time zone,
	"event_delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payment_sandbox_transactions_event_due_at_index" ON "payment_sandbox_transactions" USING btree ("event_due_at");--> statement-breakpoint
CREATE INDEX "payment_sandbox_transactions_reference_index" ON "payment_sandbox_transactions" USING btree ("reference");