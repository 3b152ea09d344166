ALTER TABLE "users" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
-- People invited before this column whose invitation is still on file and who never chose a password nor signed in.
UPDATE "users" AS u SET "invited_at" = t."created_at"
FROM (SELECT "user_id", max("created_at") AS "created_at" FROM "action_tokens" WHERE "purpose" = 'invitation' GROUP BY "user_id") AS t
WHERE t."user_id" = u."id" AND u."password_hash" IS NULL AND u."last_login_at" IS NULL AND u."deleted_at" IS NULL;
