CREATE TABLE "change_log" (
	"position" bigserial PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"resource" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "change_log_company_id_position_index" ON "change_log" USING btree ("company_id","position");--> statement-breakpoint
CREATE INDEX "change_log_created_at_index" ON "change_log" USING btree ("created_at");