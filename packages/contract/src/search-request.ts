import { z } from 'zod';
import { maxSearchHits, maxSearchQueryCharacters, searchBoxHits } from './search.js';

/** GET /api/search?q=&limit=&ctx=: the question, how many hits, and an optional path to search under. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'q is the text to search for' })
    .max(maxSearchQueryCharacters, `q is at most ${maxSearchQueryCharacters} characters`)
    .default(''),
  limit: z.coerce.number().int().min(1).max(maxSearchHits).default(searchBoxHits),
  /** A path prefix such as `/Workshops/`: search only the pages under it. */
  ctx: z
    .string()
    .max(200)
    .regex(/^\/[^?#]*$/, 'ctx is a path on this site, such as /Workshops/')
    .optional(),
});
