CREATE TABLE "files" (
	"company_id" text NOT NULL,
	"path" text NOT NULL,
	"bytes" integer NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"widths" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "files_company_id_path_pk" PRIMARY KEY("company_id","path")
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;