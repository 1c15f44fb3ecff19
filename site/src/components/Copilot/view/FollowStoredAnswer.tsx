import { useAui, useAuiState } from '@assistant-ui/react';
import { useEffect } from 'react';

/** How often an answer the server is still writing is read again. */
const followEveryMs = 1500;

/**
 * When the reader comes back to a conversation whose answer the server is still writing (a reload or another tab
 * mid-answer), reads the conversation again as the answer grows, until it has ended.
 */
export function FollowStoredAnswer(): null {
  const aui = useAui();
  const stillWriting = useAuiState((s) => s.thread.messages.some((message) => message.metadata.custom.stillWriting));
  useEffect(() => {
    if (!stillWriting) return;
    const timer = setInterval(() => void aui.threads.reloadMainThread().catch(() => {}), followEveryMs);
    return () => clearInterval(timer);
  }, [aui, stillWriting]);
  return null;
}
