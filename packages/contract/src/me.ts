import { z } from 'zod';

/**
 * GET /api/me: who is asking. A stranger gets 401 with the domains to sign in with; a signed-in account the access
 * policy refuses gets 403; an allowed reader 200.
 */
export const meResponseSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('signed-out'), primaryDomains: z.array(z.string()) }),
  z.strictObject({
    state: z.enum(['allowed', 'not-allowed']),
    email: z.string(),
    name: z.string().nullable(),
    primaryDomains: z.array(z.string()),
    /** A docs maintainer (MAINTAINERS): the site links the insights page for them alone. */
    maintainer: z.boolean(),
  }),
]);
export type MeResponse = z.infer<typeof meResponseSchema>;
