CREATE TABLE "insights_page_days" (
	"day" date NOT NULL,
	"url" text,
	"title" text,
	"answers" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_question_days" (
	"day" date PRIMARY KEY NOT NULL,
	"answered" integer NOT NULL,
	"closest" integer NOT NULL,
	"none" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_rolled_days" (
	"day" date PRIMARY KEY NOT NULL,
	"generation" bigint GENERATED ALWAYS AS IDENTITY (sequence name "insights_rolled_days_generation_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "insights_search_days" (
	"day" date PRIMARY KEY NOT NULL,
	"total" integer NOT NULL,
	"without_result" integer NOT NULL,
	"without_click" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_search_miss_days" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"searches" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "insights_search_miss_days_kind_check" CHECK ("insights_search_miss_days"."kind" in ('no-result', 'no-click'))
);
--> statement-breakpoint
CREATE TABLE "insights_search_miss_spans" (
	"first_day" date NOT NULL,
	"end_day" date NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"searches" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "insights_search_miss_spans_kind_check" CHECK ("insights_search_miss_spans"."kind" in ('no-result', 'no-click'))
);
--> statement-breakpoint
CREATE TABLE "insights_spans" (
	"first_day" date NOT NULL,
	"end_day" date NOT NULL,
	"generation" bigint GENERATED ALWAYS AS IDENTITY (sequence name "insights_spans_generation_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	CONSTRAINT "insights_spans_pk" PRIMARY KEY("first_day","end_day")
);
--> statement-breakpoint
CREATE INDEX "insights_page_days_day_index" ON "insights_page_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "insights_search_miss_days_kind_day_index" ON "insights_search_miss_days" USING btree ("kind","day");--> statement-breakpoint
CREATE INDEX "insights_search_miss_spans_span_index" ON "insights_search_miss_spans" USING btree ("first_day","end_day","kind");--> statement-breakpoint
CREATE INDEX "feedback_rated_down_index" ON "feedback" USING btree ("updated_at" DESC NULLS LAST) WHERE "feedback"."rating" = 'negative';--> statement-breakpoint
CREATE INDEX "questions_unanswered_created_at_index" ON "questions" USING btree ("created_at" DESC NULLS LAST) WHERE coalesce(confidence, case when covered then 'answered' else 'none' end) <> 'answered';