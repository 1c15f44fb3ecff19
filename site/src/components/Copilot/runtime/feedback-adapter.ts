import type { FeedbackAdapter } from '@assistant-ui/react';
import type { ServerThreadHistory } from './server-thread-history';
import { threadApi } from './thread-api';

/** Good / Bad response, kept with the message on the server (it must be saved before its feedback can be). */
export function createFeedbackAdapter(history: ServerThreadHistory): FeedbackAdapter {
  return {
    submit: ({ message, type, comment }) => {
      history
        .afterWrites(() => threadApi.setFeedback(message.id, type, comment))
        .catch((error: unknown) => history.reportSaveProblem(error));
    },
  };
}
