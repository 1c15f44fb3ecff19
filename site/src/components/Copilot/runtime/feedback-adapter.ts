import type { FeedbackAdapter } from '@assistant-ui/react';
import type { ServerConversation } from './conversation';
import { reportProblem } from './problems';
import { threadApi } from './thread-api';

/** Good / Bad response, kept with the answer on the server under the server's id for it. */
export function createFeedbackAdapter(conversation: ServerConversation): FeedbackAdapter {
  return {
    submit: ({ message, type, comment }) => {
      const messageId = conversation.serverIdOf(message.id) ?? message.id;
      threadApi
        .setFeedback(messageId, { rating: type, ...(comment ? { comment } : {}) })
        .catch((error: unknown) => reportProblem(error));
    },
  };
}
