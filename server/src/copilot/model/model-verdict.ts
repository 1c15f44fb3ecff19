import type { AnswerConfidence, AnswerSource } from '@acme/contract';
import type { DocSection } from '../../search/doc-page.js';
import { sourceTitle } from '../answer/docs-only-answer.js';
import type { AnswerStatus } from './handbook-tools.js';

export type ModelVerdict = { confidence: AnswerConfidence; sources: AnswerSource[] };

/**
 * How far a model's answer rests on the handbook. The model says so itself through `answer_status`, a tool call: a
 * typed signal, checked against its schema and apart from the prose (a sentence saying "not covered" can be worded
 * any way, quoted, or negated). Its sources are the sections it names there and those its text links or cites by
 * number, each a real section of the build. "answered" promises the exact section linked, so an answer that names
 * none that exists counts as "closest". A model that never made the call is judged by its citations: a section cited
 * means it answered from it; with none cited it is "closest", since only the model's own word declines a question.
 */
export function modelVerdict(
  status: AnswerStatus | undefined,
  cited: { urls: readonly string[]; sections: readonly DocSection[] },
  sectionAt: (url: string) => DocSection | undefined,
): ModelVerdict {
  if (status?.confidence === 'none') return { confidence: 'none', sources: [] };
  const used = new Map<string, AnswerSource>();
  const named = [...(status?.cited ?? []), ...cited.urls].map((url) => sectionAt(url));
  for (const section of [...named, ...cited.sections]) {
    if (section && !used.has(section.url)) used.set(section.url, { title: sourceTitle(section), url: section.url });
  }
  const sources = [...used.values()];
  if (!status) return { confidence: sources.length ? 'answered' : 'closest', sources };
  if (status.confidence === 'answered' && sources.length === 0) return { confidence: 'closest', sources };
  return { confidence: status.confidence, sources };
}
