-- The insights' daily sums (insights_rolled_days, the sums of its days and the spans summed from them) forget a day
-- as soon as a logged question or search of that day is written, changed or deleted: a deleted conversation, a pruned
-- log or a search opened after midnight is then read from the log again until the day is summed up anew
-- (src/insights/rollup.ts). The shared lock lets writers run side by side; summing up takes it exclusively, so a day
-- is never marked as summed from rows a concurrent writer has just changed.
CREATE FUNCTION "insights_forget_rolled_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('insights-rollup'));
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "insights_rolled_days";
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM "insights_rolled_days"
      WHERE "day" IN (SELECT ("created_at" AT TIME ZONE 'UTC')::date FROM "old_rows");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    DELETE FROM "insights_rolled_days"
      WHERE "day" IN (SELECT ("created_at" AT TIME ZONE 'UTC')::date FROM "new_rows");
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "questions_insights_insert" AFTER INSERT ON "questions"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "questions_insights_update" AFTER UPDATE ON "questions"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "questions_insights_delete" AFTER DELETE ON "questions"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "questions_insights_truncate" AFTER TRUNCATE ON "questions"
  FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "search_queries_insights_insert" AFTER INSERT ON "search_queries"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "search_queries_insights_update" AFTER UPDATE ON "search_queries"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "search_queries_insights_delete" AFTER DELETE ON "search_queries"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE TRIGGER "search_queries_insights_truncate" AFTER TRUNCATE ON "search_queries"
  FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_rolled_days"();
--> statement-breakpoint
CREATE FUNCTION "insights_forget_sums"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM "old_rows") THEN
    RETURN NULL;
  END IF;
  DELETE FROM "insights_question_days" WHERE "day" IN (SELECT "day" FROM "old_rows");
  DELETE FROM "insights_page_days" WHERE "day" IN (SELECT "day" FROM "old_rows");
  DELETE FROM "insights_search_days" WHERE "day" IN (SELECT "day" FROM "old_rows");
  DELETE FROM "insights_search_miss_days" WHERE "day" IN (SELECT "day" FROM "old_rows");
  DELETE FROM "insights_search_miss_spans" AS "sums" WHERE EXISTS (
    SELECT FROM "old_rows" WHERE "old_rows"."day" >= "sums"."first_day" AND "old_rows"."day" < "sums"."end_day");
  DELETE FROM "insights_spans" AS "span" WHERE EXISTS (
    SELECT FROM "old_rows" WHERE "old_rows"."day" >= "span"."first_day" AND "old_rows"."day" < "span"."end_day");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "insights_rolled_days_forget_sums" AFTER DELETE ON "insights_rolled_days"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insights_forget_sums"();
