import type { ImageAttachment, TurnRequest } from '@acme/contract';
import type { ChatModelAdapter, ThreadMessage } from '@assistant-ui/react';
import type { ServerConversation } from './conversation';
import { CopilotError } from './copilot-error';
import { questionStored } from './thread-list-adapter';
import { askTurn, stopTurn } from './turn-api';
import { answerParts, dataOf } from './turn-message';

const textOf = (message: ThreadMessage) =>
  message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');

/** An image attachment's data URL, split into the media type and the bare base64 the server wants. */
export function imageFromDataUrl(dataUrl: string, name?: string): ImageAttachment | null {
  const match = dataUrl.match(/^data:([^;,]+);base64,(.*)$/s);
  if (!match?.[1] || match[2] === undefined) return null;
  return { type: 'image', contentType: match[1], content: match[2], ...(name ? { name } : {}) };
}

function imagesOf(message: ThreadMessage): ImageAttachment[] {
  return (message.attachments ?? []).flatMap((attachment) =>
    (attachment.content ?? []).flatMap((part) => {
      if (part.type !== 'image') return [];
      const image = imageFromDataUrl(part.image, attachment.name);
      return image ? [image] : [];
    }),
  );
}

/** The stored answer a new question follows: the nearest earlier answer the server has; null for the first. */
function parentOf(messages: readonly ThreadMessage[], conversation: ServerConversation): string | null {
  for (const message of messages.slice(0, -1).reverse()) {
    const serverId = message.role === 'assistant' ? conversation.serverIdOf(message.id) : undefined;
    if (serverId) return serverId;
  }
  return null;
}

/**
 * Dev Copilot's model for the runtime: each run is one turn on the server (POST /api/turns). A question the server
 * already stored is answered again (Refresh); any other is a new question after the stored answer before it (a send,
 * or an edit). Stop tells the server to stop; closing the page does not, and the server finishes the answer.
 */
export function createTurnModelAdapter(conversation: ServerConversation, currentPage: () => string): ChatModelAdapter {
  return {
    async *run({ messages, abortSignal, unstable_assistantMessageId: answerId }) {
      const question = messages.at(-1);
      if (question?.role !== 'user') throw new CopilotError('bad_request:ask', 'Only a question can be answered.');
      const threadId = await conversation.threadId();
      const stored = conversation.serverIdOf(question.id);
      const common = { threadId, attachments: imagesOf(question), page: currentPage() };
      const turn: TurnRequest = stored
        ? { ...common, retryOf: stored }
        : { ...common, parentId: parentOf(messages, conversation), text: textOf(question) };
      // The thread takes its title from its first question once that is stored.
      const markStored = () => questionStored(threadId);
      const stop = () => void stopTurn(threadId).catch(() => {});
      // Stop may come while the thread was still being created: then the turn is stopped as soon as it is sent.
      if (abortSignal.aborted) stop();
      else abortSignal.addEventListener('abort', stop, { once: true });
      try {
        for await (const message of askTurn(turn, abortSignal)) {
          const ids = dataOf(message, 'turn');
          if (ids) {
            markStored();
            conversation.remember(question.id, ids.questionId);
            if (answerId) conversation.remember(answerId, ids.answerId);
          }
          const failure = dataOf(message, 'failure');
          if (failure) throw new CopilotError(failure.code, failure.message);
          yield answerParts(message);
        }
      } catch (error) {
        if (abortSignal.aborted) return;
        throw error;
      } finally {
        markStored();
        abortSignal.removeEventListener('abort', stop);
      }
    },
  };
}
