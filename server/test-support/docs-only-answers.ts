import { composeDocsOnlyAnswer } from '../src/copilot/answer/docs-only-answer.js';
import { retrieve } from '../src/search/coverage.js';
import type { DocSection } from '../src/search/doc-page.js';
import { createSearchEngine, type SearchEngine } from '../src/search/engine.js';

type Extra = Omit<Parameters<typeof composeDocsOnlyAnswer>[0], 'retrieval' | 'termWeight' | 'meaningWeight'>;

/**
 * Dev Copilot's docs-only answers over `sections` alone, as the server composes them for a question: the search of
 * those sections, then the answer quoted from what it found.
 */
export function docsOnlyAnswers(sections: DocSection[]): {
  engine: SearchEngine;
  answer: (question: string, extra?: Extra) => ReturnType<typeof composeDocsOnlyAnswer>;
} {
  const engine = createSearchEngine(sections);
  const answer = (question: string, extra: Extra = {}) =>
    composeDocsOnlyAnswer({
      retrieval: retrieve(engine, question),
      termWeight: engine.termWeight,
      meaningWeight: engine.meaningWeight,
      ...extra,
    });
  return { engine, answer };
}
