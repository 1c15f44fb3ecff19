-- What the reader typed, beside what was searched for (a short follow-up with the question before it, and the text
-- read from screenshots): the insights show questions as readers asked them. Older rows keep null.
ALTER TABLE "questions" ADD COLUMN "asked" text;