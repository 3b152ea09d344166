ALTER TABLE "orders" ADD COLUMN "refunds" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Orders refunded before refunds were listed: one refund of their whole total, with the reason they carry.
UPDATE "orders" SET "refunds" = jsonb_build_array(jsonb_build_object('amount', "total", 'reason', coalesce("refund_reason", ''), 'at', to_char("updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'by', jsonb_build_object('uid', NULL, 'name', 'sistema', 'role', 'system'))) WHERE "payment_status" = 'refunded';
