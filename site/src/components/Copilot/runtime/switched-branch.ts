import type { ThreadRuntime } from '@assistant-ui/react';
import { storedIdOf } from './conversation';
import { threadApi } from './thread-api';
import { titleFromServer } from './thread-list-adapter';

/**
 * Tells the server the branch the reader switched to, by its last message, so the thread reopens on it in any browser.
 * A switch is a change of the last message shown while nothing runs: a turn changes it while it runs, and the server
 * itself shows the newest message's branch once a message is added. A thread's first load changes it from nothing.
 */
export function rememberSwitchedBranch(thread: ThreadRuntime, threadId: () => string | undefined): () => void {
  let shownLast = thread.getState().messages.at(-1)?.id;
  /** Which switch is the latest: a slower answer to an earlier one must not put back that branch's title. */
  let switches = 0;
  return thread.subscribe(() => {
    const { messages, isRunning } = thread.getState();
    const last = messages.at(-1)?.id;
    if (last === shownLast) return;
    const before = shownLast;
    shownLast = last;
    const messageId = last && storedIdOf(last);
    const stored = threadId();
    if (isRunning || before === undefined || !messageId || !stored) return;
    // Only a convenience: if it fails, the thread reopens on its newest branch as before. A thread named after its
    // first question takes the title of the branch's own first question.
    const switchNumber = ++switches;
    threadApi.setHead(stored, { messageId }).then(
      ({ title }) => {
        const latest = switchNumber === switches && shownLast === last && !thread.getState().isRunning;
        if (latest) titleFromServer(stored, title);
      },
      () => {},
    );
  });
}
