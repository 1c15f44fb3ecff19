import { useAui, useAuiState } from '@assistant-ui/react';
import { useEffect } from 'react';
import { threadApi } from '../runtime/thread-api';

const firstLookMs = 1000;
const longestWaitMs = 10_000;

/**
 * When the reader comes back to a conversation whose answer the server is still writing (a reload or another tab
 * mid-answer), looks at the stored answer now and then and shows it again when it has grown or ended; the waits grow
 * while nothing changes, so an answer left by a stopped server costs little until the server marks it failed.
 */
export function FollowStoredAnswer(): null {
  const aui = useAui();
  const threadId = useAuiState((s) => s.threadListItem.remoteId);
  const writing = useAuiState((s) => {
    const answer = s.thread.messages.find((message) => message.metadata.custom.stillWriting === true);
    return answer ? `${answer.id}:${textLength(answer.content)}` : null;
  });
  useEffect(() => {
    if (!writing || !threadId) return;
    const [answerId, length] = writing.split(':');
    let wait = firstLookMs;
    let timer: ReturnType<typeof setTimeout>;
    const look = async () => {
      const stored = (await threadApi.get(threadId).catch(() => null))?.messages.find((m) => m.id === answerId);
      const changed = stored?.status !== 'running' || String(textLength(stored.content)) !== length;
      if (changed) void aui.threads.reloadMainThread().catch(() => {});
      else {
        wait = Math.min(wait * 1.5, longestWaitMs);
        timer = setTimeout(look, wait);
      }
    };
    timer = setTimeout(look, wait);
    return () => clearTimeout(timer);
  }, [aui, threadId, writing]);
  return null;
}

const textLength = (content: readonly { type: string; text?: string }[]) =>
  content.reduce((total, part) => total + (part.type === 'text' ? (part.text?.length ?? 0) : 0), 0);
