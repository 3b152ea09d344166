ALTER TABLE "users" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Invitations were password-reset codes living a week (a recovery link lives 30 minutes): they get their own
-- purpose, since accepting one keeps the account in the inviting bakery (issue 38, hole 2).
UPDATE "action_tokens" SET "purpose" = 'invitation' WHERE "purpose" = 'password-reset' AND "expires_at" - "created_at" > interval '1 hour';
