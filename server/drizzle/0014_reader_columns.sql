-- One word for the signed-in person (issue 26): the columns that held the reader key, named `owner`, are `reader`.
-- drizzle-kit wrote the indexes and the unique constraint as dropped and made anew; they are renamed in place instead,
-- so no index is rebuilt and questions are never without their one-entry-per-answer constraint.
ALTER TABLE "feedback" RENAME COLUMN "owner" TO "reader";--> statement-breakpoint
ALTER TABLE "oauth_codes" RENAME COLUMN "owner" TO "reader";--> statement-breakpoint
ALTER TABLE "personal_tokens" RENAME COLUMN "owner" TO "reader";--> statement-breakpoint
ALTER TABLE "questions" RENAME COLUMN "owner" TO "reader";--> statement-breakpoint
ALTER TABLE "search_queries" RENAME COLUMN "owner" TO "reader";--> statement-breakpoint
ALTER TABLE "threads" RENAME COLUMN "owner" TO "reader";--> statement-breakpoint
ALTER TABLE "questions" RENAME CONSTRAINT "questions_owner_answer_unique" TO "questions_reader_answer_unique";--> statement-breakpoint
ALTER INDEX "personal_tokens_owner_index" RENAME TO "personal_tokens_reader_index";--> statement-breakpoint
ALTER INDEX "search_queries_owner_index" RENAME TO "search_queries_reader_index";--> statement-breakpoint
ALTER INDEX "threads_owner_updated_at_index" RENAME TO "threads_reader_updated_at_index";
