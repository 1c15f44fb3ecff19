CREATE TABLE "search_queries" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"query" text NOT NULL,
	"result_count" integer NOT NULL,
	"clicked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "confidence" text;--> statement-breakpoint
CREATE INDEX "search_queries_created_at_index" ON "search_queries" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "search_queries_owner_index" ON "search_queries" USING btree ("owner");