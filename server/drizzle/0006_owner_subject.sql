-- Ownership moves from the e-mail address to the identity provider's subject (issuer and sub, src/auth/reader-identity.ts).
-- Sessions made before carry no subject: they are ended, and everyone signs in once more.
DELETE FROM "sessions";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "issuer" text NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "subject" text NOT NULL;--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "owner" text;--> statement-breakpoint
-- Rows from before have only the address (lower-cased by JavaScript's Unicode rules): they get a key no subject can
-- have, `email:<address>`, and are handed over at the next sign-in of that exact address (claimLegacyOwnership).
UPDATE "feedback" SET "owner" = 'email:' || "owner_email";--> statement-breakpoint
UPDATE "questions" SET "owner" = 'email:' || "owner_email";--> statement-breakpoint
UPDATE "threads" SET "owner" = 'email:' || "owner_email";--> statement-breakpoint
ALTER TABLE "questions" DROP CONSTRAINT "questions_owner_answer_unique";--> statement-breakpoint
DROP INDEX "threads_owner_updated_at_index";--> statement-breakpoint
ALTER TABLE "feedback" ALTER COLUMN "owner" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ALTER COLUMN "owner" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "threads" ALTER COLUMN "owner" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "threads_owner_updated_at_index" ON "threads" USING btree ("owner","updated_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "feedback" DROP COLUMN "owner_email";--> statement-breakpoint
ALTER TABLE "questions" DROP COLUMN "owner_email";--> statement-breakpoint
ALTER TABLE "threads" DROP COLUMN "owner_email";--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_owner_answer_unique" UNIQUE("owner","answer_message_id");
