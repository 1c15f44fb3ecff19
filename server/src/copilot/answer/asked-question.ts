import type { AskAiRequest } from '@acme/contract';
import type { Retrieval } from '../../search/coverage.js';

/** The conversation's last question, in its own words. */
export function lastQuestionOf(conversation: AskAiRequest): string {
  const last = conversation.messages.findLast((message) => message.role === 'user');
  return (last?.content ?? [])
    .map((part) => part.text)
    .join(' ')
    .trim();
}

/**
 * The sections for the question being asked. A short follow-up is searched together with the question before it
 * (`searched`: "and on Windows?" needs its topic); when that finds no answer, the follow-up was a topic of its own,
 * searched again on its own words (`asked`): a "not covered" then lists the pages nearest to what was just asked,
 * not those of the earlier topic, and a new topic the handbook does cover is answered.
 */
export async function retrieveAsked(
  search: (text: string) => Promise<Retrieval>,
  question: { searched: string; asked: string },
): Promise<Retrieval> {
  const together = await search(question.searched);
  if (together.coverage.covered || !question.asked || question.asked === question.searched) return together;
  return search(question.asked);
}
