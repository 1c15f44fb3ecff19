-- The last message of the branch the reader last switched to, so a thread reopens on it; null: the newest message.
ALTER TABLE "threads" ADD COLUMN "head_message_id" text;
