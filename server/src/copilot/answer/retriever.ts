import { type Retrieval, retrieve } from '../../search/coverage.js';
import type { SearchEngine } from '../../search/engine.js';
import { reorderByMeaning, type SemanticHit } from '../../search/semantic-index.js';
import { readersPageFirst } from './readers-page.js';

/** Sections nearest in meaning to a question, when an embedding model is configured (hybrid retrieval). */
export type SemanticSearch = (
  query: string,
  options: { limit: number; signal?: AbortSignal },
) => Promise<SemanticHit[]>;

/** Sections handed on to the answer, best first. */
const answerSections = 8;
const candidates = 20;

/**
 * The sections for a question: ranked by the search engine on the typed words and a screenshot's text together
 * (either may show the handbook covers it), the reader's page first among equals, then reordered by meaning when
 * embeddings are configured. A question about the reader's page is answered from that page (readers-page.ts).
 */
export async function retrieveForAnswer(
  index: SearchEngine,
  question: { typed: string; imageText: string; page: string | undefined; asked?: string | undefined },
  semanticSearch: SemanticSearch | undefined,
  signal: AbortSignal,
): Promise<Retrieval> {
  const text = [question.typed, question.imageText].filter(Boolean).join('\n');
  const found = retrieve(index, text, {
    limit: candidates,
    currentPage: question.page,
    alsoJudgeBy: question.imageText ? question.typed : undefined,
    // A follow-up searched with the question before it asks for its own kind of answer; a screenshot's text says
    // what the reader sees, and with the typed words, what is asked.
    asked: question.asked === undefined ? undefined : [question.asked, question.imageText].filter(Boolean).join('\n'),
  });
  const onPage = readersPageFirst(index, question.typed, question.page, found, answerSections);
  if (onPage) return onPage;
  const meaning = semanticSearch ? await semanticSearch(text, { limit: candidates, signal }) : [];
  return { ...found, hits: reorderByMeaning(found.hits, meaning).slice(0, answerSections) };
}
