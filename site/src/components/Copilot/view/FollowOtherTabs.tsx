import { useAui, useAuiState } from '@assistant-ui/react';
import { useEffect } from 'react';
import { askedElsewhere } from '../runtime/asked-elsewhere';
import { showStored } from '../runtime/conversation';

/**
 * When the conversation comes on screen, and whenever the tab comes back into view or focus, shows what was asked in
 * it in another tab meanwhile: its newest branch, as a reload would. Never while an answer is being written here, and
 * never over a question sent or a branch chosen while the server was asked.
 */
export function FollowOtherTabs(): null {
  const aui = useAui();
  const threadId = useAuiState((s) => s.threadListItem.remoteId);
  const idle = useAuiState((s) => !s.thread.isLoading && !s.threads.isLoading);
  useEffect(() => {
    if (!threadId || !idle) return;
    let left = false;
    let looking = false;
    const onScreen = () => aui.thread.getState().messages.map((message) => `${message.id}:${message.status?.type}`);
    const look = async () => {
      const { isRunning, messages } = aui.thread.getState();
      // No messages: the stored ones are not in yet (they come a moment after the switch), or there are none to follow.
      if (looking || left || document.visibilityState === 'hidden' || isRunning || messages.length === 0) return;
      looking = true;
      const before = onScreen().join();
      const stored = await askedElsewhere(threadId, aui.thread.export()).catch(() => null);
      looking = false;
      if (stored && !left && !aui.thread.getState().isRunning && onScreen().join() === before) {
        aui.thread.import(showStored(stored));
      }
    };
    const lookAgain = () => void look();
    lookAgain();
    document.addEventListener('visibilitychange', lookAgain);
    window.addEventListener('focus', lookAgain);
    return () => {
      left = true;
      document.removeEventListener('visibilitychange', lookAgain);
      window.removeEventListener('focus', lookAgain);
    };
  }, [aui, threadId, idle]);
  return null;
}
