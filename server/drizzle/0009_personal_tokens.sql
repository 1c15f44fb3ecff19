CREATE TABLE "personal_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean NOT NULL,
	"hosted_domain" text,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "personal_tokens_owner_index" ON "personal_tokens" USING btree ("owner","created_at" DESC NULLS LAST);