import { useAui, useAuiState } from '@assistant-ui/react';
import { useEffect } from 'react';
import { showStored } from '../runtime/conversation';
import { threadApi } from '../runtime/thread-api';
import { followedAnswerOf } from './useFollowedAnswer';

const firstLookMs = 1000;
const longestWaitMs = 10_000;

/**
 * When the reader comes back to a conversation whose answer the server is still writing (a reload or another tab
 * mid-answer), looks at the stored answer now and then and shows it again when it has grown or ended; the waits grow
 * while nothing changes, so an answer left by a stopped server costs little until the server marks it failed. The
 * stored messages replace those on screen in the same conversation runtime: reloading the thread would make a new one,
 * and the draft the reader types meanwhile would go with the old composer.
 */
export function FollowStoredAnswer(): null {
  const aui = useAui();
  const threadId = useAuiState((s) => s.threadListItem.remoteId);
  const writing = useAuiState((s) => {
    const answer = followedAnswerOf(s.thread.messages);
    return answer ? `${answer.id}:${textLength(answer.content)}` : null;
  });
  useEffect(() => {
    if (!writing || !threadId) return;
    const [answerId, length] = writing.split(':');
    let wait = firstLookMs;
    let timer: ReturnType<typeof setTimeout>;
    let left = false;
    const look = async () => {
      const stored = await threadApi.get(threadId).catch(() => null);
      // Stopped meanwhile (the screen already shows the answer as it ended), or another conversation is on screen.
      if (left) return;
      const answer = stored?.messages.find((message) => message.id === answerId);
      const changed = answer?.status !== 'running' || String(textLength(answer.content)) !== length;
      if (stored && changed && !aui.thread.getState().isRunning) {
        aui.thread.import(showStored(stored));
        return;
      }
      wait = Math.min(wait * 1.5, longestWaitMs);
      timer = setTimeout(look, wait);
    };
    timer = setTimeout(look, wait);
    return () => {
      left = true;
      clearTimeout(timer);
    };
  }, [aui, threadId, writing]);
  return null;
}

const textLength = (content: readonly { type: string; text?: string }[]) =>
  content.reduce((total, part) => total + (part.type === 'text' ? (part.text?.length ?? 0) : 0), 0);
