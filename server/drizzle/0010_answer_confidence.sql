ALTER TABLE "messages" ADD COLUMN "confidence" text;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_confidence_check" CHECK ("messages"."confidence" in ('answered', 'closest', 'none'));--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_confidence_check" CHECK ("questions"."confidence" in ('answered', 'closest', 'none'));