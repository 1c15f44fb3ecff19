-- Each account's address as its latest sign-in gave it: every session, token and grant of the account is judged by it
-- too, so an address changed at the identity provider and then blocked locks out what was made under the old one.
CREATE TABLE "accounts" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean NOT NULL,
	"hosted_domain" text,
	"signed_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);--> statement-breakpoint
-- Accounts signed in before this migration: the address of their newest session is the latest one known.
INSERT INTO "accounts" ("issuer", "subject", "email", "email_verified", "hosted_domain", "signed_in_at")
SELECT DISTINCT ON ("issuer", "subject") "issuer", "subject", "email", "email_verified", "hosted_domain", "created_at"
FROM "sessions"
ORDER BY "issuer", "subject", "created_at" DESC;
