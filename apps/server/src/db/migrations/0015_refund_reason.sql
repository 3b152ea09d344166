-- Refunds (issue 24): why a paid order was refunded, recorded with the admin's move paid → refunded.
ALTER TABLE "orders" ADD COLUMN "refund_reason" text;
