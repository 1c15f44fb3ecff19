import { useAui, useAuiState } from '@assistant-ui/react';
import { useCallback, useRef } from 'react';
import { showStored } from '../runtime/conversation';
import { stopFollowedAnswer } from '../runtime/stop-followed-answer';

type ShownMessage = { id: string; metadata: { custom: Record<string, unknown> } };

/** The answer on screen that the server is still writing for an earlier page of this reader (a reload mid-answer). */
export const followedAnswerOf = <Message extends ShownMessage>(messages: readonly Message[]) =>
  messages.find((message) => message.metadata.custom.stillWriting === true);

/** Whether the conversation on screen has an answer the server is still writing (see FollowStoredAnswer). */
export function useFollowingAnswer(): boolean {
  return useAuiState((s) => followedAnswerOf(s.thread.messages) !== undefined);
}

/**
 * Stop for an answer followed after a reload: no run of this page reads it, so the runtime's own Cancel has nothing to
 * cancel. The server is told as the page that asked would tell it, and the screen settles on the answer as stored,
 * marked stopped with what was written. A second press while the first is on its way does nothing more.
 */
export function useStopFollowedAnswer(): () => void {
  const aui = useAui();
  const stopping = useRef(false);
  return useCallback(() => {
    const threadId = aui.threadListItem.getState().remoteId;
    const answer = followedAnswerOf(aui.thread.getState().messages);
    if (!threadId || !answer || stopping.current) return;
    stopping.current = true;
    void stopFollowedAnswer(threadId, answer.id).then((stored) => {
      stopping.current = false;
      // Never over another conversation the reader opened meanwhile, nor over a question asked since.
      const sameThread = aui.threadListItem.getState().remoteId === threadId;
      if (stored && sameThread && !aui.thread.getState().isRunning) aui.thread.import(showStored(stored));
    });
  }, [aui]);
}
