import { ApiError, errorDetails, type ParsedTurnRequest, textOfContent } from '@acme/contract';
import type { Message } from '../../store/conversations.js';
import type { Database } from '../../store/database.js';
import { answersTo, conversationUpTo } from '../../store/messages.js';
import type { Conversation, ConversationMessage } from '../answer/asked-question.js';

/** Where a turn's question goes: after which message, with which stored question when it is answered again. */
export type QuestionPlace = {
  parentId: string | null;
  /** The messages before the question, oldest first. */
  history: Message[];
  /** The stored question a Refresh answers again. */
  retried?: Message | undefined;
  /** The answers it has had: a Refresh asks for another. */
  earlierAnswers?: Message[] | undefined;
};

/**
 * Finds where a turn's question belongs in the reader's thread: a new question follows an answer (or nothing), a
 * Refresh answers a stored question again. Another reader's thread or message is not found, always.
 */
export async function placeQuestion(db: Database, reader: string, turn: ParsedTurnRequest): Promise<QuestionPlace> {
  const target = turn.retryOf ?? turn.parentId;
  // A first question has nothing before it; storing it checks the thread is the reader's (appendMessage).
  if (target === null || target === undefined) return { parentId: null, history: [] };
  const branch = await conversationUpTo(db, { reader, threadId: turn.threadId, messageId: target });
  const last = branch.at(-1);
  if (turn.retryOf) {
    if (last?.role !== 'user') throw new ApiError('bad_request:parent_id', errorDetails.place.retryOfQuestion);
    const earlierAnswers = await answersTo(db, { threadId: turn.threadId, questionId: last.id });
    return { parentId: last.parentId, history: branch.slice(0, -1), retried: last, earlierAnswers };
  }
  if (last?.role !== 'assistant') {
    throw new ApiError('bad_request:parent_id', errorDetails.place.parentIdAnswer);
  }
  return { parentId: last.id, history: branch };
}

/** A stored message's text. */
export const textOf = (message: Message) => textOfContent(message.content);

/**
 * The conversation as the answer service reads it: the stored turns' text (their images were answered already and
 * are not kept), then the question with its images.
 */
export function conversationFor(
  place: QuestionPlace,
  question: Omit<ConversationMessage, 'role'>,
  page: string | undefined,
): Conversation {
  const history = place.history.map(
    (message): ConversationMessage => ({ role: message.role, text: textOf(message), attachments: [] }),
  );
  const earlierAnswers = place.earlierAnswers?.map(textOf);
  return { messages: [...history, { role: 'user', ...question }], page, ...(earlierAnswers ? { earlierAnswers } : {}) };
}
