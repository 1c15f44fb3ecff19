-- The last message of the branch the reader last switched to, and when: a thread reopens on it unless a message came since.
ALTER TABLE "threads" ADD COLUMN "head_message_id" text;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "head_set_at" timestamp with time zone;