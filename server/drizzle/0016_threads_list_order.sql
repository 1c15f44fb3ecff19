-- The thread list in its own order (nulls first, as `desc` sorts), ties by id included: a page is read from where its
-- cursor points instead of sorting all the reader's threads.
DROP INDEX "threads_reader_updated_at_index";--> statement-breakpoint
CREATE INDEX "threads_reader_updated_at_id_index" ON "threads" USING btree ("reader","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);