CREATE TABLE "questions" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_email" text NOT NULL,
	"question" text NOT NULL,
	"mode" text NOT NULL,
	"covered" boolean NOT NULL,
	"nearest_page_url" text,
	"nearest_page_title" text,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answer_message_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questions_answer_message_id_unique" UNIQUE("answer_message_id"),
	CONSTRAINT "questions_mode_check" CHECK ("questions"."mode" in ('docs-only', 'model'))
);
--> statement-breakpoint
CREATE INDEX "questions_created_at_index" ON "questions" USING btree ("created_at" DESC NULLS LAST);