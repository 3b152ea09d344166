CREATE TABLE "payment_transactions" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- Hand-written: the transactions already seen keep the reference of their first event.
INSERT INTO "payment_transactions" ("transaction_id", "reference", "first_seen_at")
SELECT DISTINCT ON ("transaction_id") "transaction_id", "reference", "received_at"
FROM "payment_events"
ORDER BY "transaction_id", "received_at";
