import { z } from 'zod';

/** The one tool a model may call in Dev Copilot: a search of the handbook, with the engine behind /api/search. */
export const handbookSearchToolName = 'search_handbook';

const foundSectionSchema = z.strictObject({ title: z.string(), url: z.string() });

/** What a model's search found, as the reader sees it: the sections' titles and links, or why it found nothing. */
export const handbookSearchResultSchema = z.strictObject({
  results: z.array(foundSectionSchema),
  /** Why the query was not searched (too long, nothing to search by), in words the model and the reader can act on. */
  error: z.string().optional(),
});

/**
 * A search the model made while answering, kept in the answer's content as the spec's tool-call part (toolName,
 * toolCallId, result) so a reload shows it.
 */
export const handbookSearchPartSchema = z.strictObject({
  type: z.literal('tool-call'),
  toolName: z.literal(handbookSearchToolName),
  toolCallId: z.string(),
  args: z.strictObject({ query: z.string() }),
  result: handbookSearchResultSchema,
});

export type HandbookSearchResult = z.infer<typeof handbookSearchResultSchema>;
export type HandbookSearchPart = z.infer<typeof handbookSearchPartSchema>;
