-- The last message of the branch the reader last switched to, and the thread's last message sequence then: a thread reopens
-- on it unless a message came since.
ALTER TABLE "threads" ADD COLUMN "head_message_id" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "head_after_sequence" bigint;