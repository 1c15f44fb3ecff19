-- A grant keeps the refresh token its last refresh replaced: that one presented again revokes the grant (RFC 9700
-- 4.14.2); a made-up secret for the grant's id is only refused.
ALTER TABLE "personal_tokens" ADD COLUMN "previous_refresh_hash" text;