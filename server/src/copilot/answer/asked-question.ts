import type { ImageAttachment, MessageRole } from '@acme/contract';
import type { Retrieval } from '../../search/coverage.js';

/** One message as Dev Copilot reads it: its text, and the images sent with it. */
export type ConversationMessage = { role: MessageRole; text: string; attachments: readonly ImageAttachment[] };

/**
 * What Dev Copilot answers: the messages, oldest first, ending with the question, and the page the reader is on. A
 * turn's question is its request's own text and images; askAi's message parts are joined once, at its route.
 */
export type Conversation = {
  messages: readonly ConversationMessage[];
  page?: string | undefined;
  /** The answers the question already had, when a Refresh asks for another one. */
  earlierAnswers?: readonly string[] | undefined;
};

/** The conversation's last question, in its own words. */
export function lastQuestionOf(conversation: Conversation): string {
  return conversation.messages.findLast((message) => message.role === 'user')?.text.trim() ?? '';
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
