import { z } from 'zod';
import { printableName, storableString } from './text.js';

/** Personal access tokens' wire contract: a reader's read-only credential for scripts and coding agents. */

export const personalTokenPrefix = 'acme_pat_';
export const defaultTokenLifetimeDays = 30;
export const maxTokenLifetimeDays = 365;
export const maxTokenNameCharacters = 100;
/** Tokens one reader may hold at once; a forgotten script's token is revoked or expires, it is not piled on. */
export const maxTokensPerReader = 50;

/** A token's public id: 16 letters, digits, "_" or "-" (it is part of the token itself). */
export const personalTokenIdSchema = z.string().regex(/^[\w-]{16}$/, 'a token id is 16 letters, digits, "_" or "-"');

export const createTokenRequestSchema = z.strictObject({
  name: storableString(
    printableName('name')
      .trim()
      .min(1, 'name must not be empty')
      .max(maxTokenNameCharacters, `name must be at most ${maxTokenNameCharacters} characters`),
  ),
  expiresInDays: z
    .int('expiresInDays must be a whole number of days')
    .min(1, 'expiresInDays must be at least 1')
    .max(maxTokenLifetimeDays, `expiresInDays must be at most ${maxTokenLifetimeDays}`)
    .default(defaultTokenLifetimeDays),
});
export type CreateTokenRequest = z.input<typeof createTokenRequestSchema>;

/** A token as listed: never its secret. */
export const personalTokenSchema = z.strictObject({
  id: personalTokenIdSchema,
  name: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type PersonalToken = z.infer<typeof personalTokenSchema>;

/** The answer to a creation: the only time the token itself is ever shown. */
export const createdTokenSchema = z.strictObject({
  id: personalTokenIdSchema,
  token: z.string().startsWith(personalTokenPrefix),
  name: z.string(),
  expiresAt: z.iso.datetime(),
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;

export const tokenListSchema = z.strictObject({ tokens: z.array(personalTokenSchema) });
export type TokenList = z.infer<typeof tokenListSchema>;

export const tokenIdParamsSchema = z.strictObject({ id: personalTokenIdSchema });
