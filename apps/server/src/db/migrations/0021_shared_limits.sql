CREATE TABLE "live_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"instance" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "live_streams_holder_index" ON "live_streams" USING btree ("holder");--> statement-breakpoint
CREATE INDEX "live_streams_instance_index" ON "live_streams" USING btree ("instance");--> statement-breakpoint
CREATE INDEX "rate_windows_started_at_index" ON "rate_windows" USING btree ("started_at");--> statement-breakpoint
-- Hand-written: counters and open streams need no WAL (a crash empties them, which forgives one window
-- and lets streams reconnect), so their upserts cost less.
ALTER TABLE "live_streams" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "rate_windows" SET UNLOGGED;
