import {
  type AnswerConfidence,
  answerConfidences,
  type HandbookSearchPart,
  handbookSearchToolName,
  maxSearchQueryCharacters,
  storableText,
} from '@acme/contract';
import { tool } from 'ai';
import { z } from 'zod';
import type { DocSection } from '../../search/doc-page.js';
import { searchableQuery } from '../../search/searchable-query.js';
import { sourceTitle } from '../answer/docs-only-answer.js';

/** The tool through which the model says how far the handbook answers the question, and what it rests on. */
export const answerStatusToolName = 'answer_status';

/** Sections one search gives the model: enough to find a better one, little enough to stay in its context. */
const foundSectionCount = 4;
const foundSectionCharacters = 1_800;

/** The one search the model may make: the sections found (or why none), and how the reader is shown it. */
export type HandbookSearch = { sections: DocSection[]; part: HandbookSearchPart };

const answerStatusSchema = z.object({
  confidence: z.enum(answerConfidences),
  cited: z
    .array(z.string())
    .max(20)
    .describe('The URLs of the handbook sections your answer rests on, exactly as given'),
});

/** What the model said of its own answer through `answer_status`. */
export type AnswerStatus = { confidence: AnswerConfidence; cited: string[] };

/** Longer than the search box allows: the model is told so, as the search box's caller is by a 400. */
const tooLong = `The query is longer than ${maxSearchQueryCharacters} characters. Search with a few of the handbook's own words.`;
const nothingToSearch = 'The query has nothing to search by. Search with a few words.';
const noSecondSearch = 'Only one search is allowed per answer. Answer from the sections you already have.';

/** The query as the reader is shown it and the store keeps it: storable, without control characters, capped. */
const shownQuery = (query: string) => {
  const clean = storableText(searchableQuery(query));
  return clean.length > maxSearchQueryCharacters ? `${clean.slice(0, maxSearchQueryCharacters - 1)}…` : clean;
};

const clip = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

/**
 * The model's two tools for one answer. `search_handbook` runs the question retrieval's own engine (the engine of
 * /api/search, with its query rules and caps) once per answer; a second call is told no. `answer_status` has no
 * `execute`: the SDK ends the run at a call to it, so it is asked for last, after the answer's text.
 */
export function handbookTools(options: {
  search: (query: string, signal: AbortSignal | undefined) => Promise<readonly DocSection[]>;
  /** Each search made, as it is made: the answer numbers its sections after the ones given up front. */
  onSearch: (search: HandbookSearch) => void;
}) {
  let searched = false;
  return {
    [handbookSearchToolName]: tool({
      description:
        "Search Acme's developer handbook once more, with the engine of its search box, when the sections you were given do not answer the question. Use the handbook's own words (its page titles and headings), not the reader's names for things. You may search only once per answer.",
      inputSchema: z.object({ query: z.string().describe('A few words to search the handbook for') }),
      execute: async ({ query }, { toolCallId, abortSignal }) => {
        if (searched) return { error: noSecondSearch };
        searched = true;
        const text = searchableQuery(query);
        const error = text.length > maxSearchQueryCharacters ? tooLong : text === '' ? nothingToSearch : undefined;
        const sections = error ? [] : (await options.search(text, abortSignal)).slice(0, foundSectionCount);
        const results = sections.map((section) => ({ title: sourceTitle(section), url: section.url }));
        options.onSearch({
          sections,
          part: {
            type: 'tool-call',
            toolName: handbookSearchToolName,
            toolCallId,
            args: { query: shownQuery(query) },
            result: error ? { results, error } : { results },
          },
        });
        if (error) return { error };
        if (sections.length === 0) return { sections: [], note: 'Nothing in the handbook matched this query.' };
        return {
          sections: sections.map((section) => ({
            title: sourceTitle(section),
            url: section.url,
            text: clip(section.text, foundSectionCharacters),
          })),
        };
      },
    }),
    [answerStatusToolName]: tool({
      description:
        'Say how far the handbook answers the question, once, after your answer. "answered": the handbook sections answer it; "closest": they come near but do not answer it exactly; "none": the handbook does not cover it.',
      inputSchema: answerStatusSchema,
    }),
  };
}

/** The status the model gave through its tool call, when the call's input is one (the SDK has checked its schema). */
export function answerStatusOf(input: unknown): AnswerStatus | undefined {
  const parsed = answerStatusSchema.safeParse(input);
  return parsed.success ? parsed.data : undefined;
}
