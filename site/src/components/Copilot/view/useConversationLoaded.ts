import { useAuiState } from '@assistant-ui/react';
import { useHistoryLoaded } from '../runtime/loaded-histories';

/** The reader's conversations are listed and the one on screen has its stored messages in. */
export function useConversationLoaded(): boolean {
  const remoteId = useAuiState((s) => s.threadListItem.remoteId);
  const historyLoaded = useHistoryLoaded(remoteId);
  const idle = useAuiState((s) => !s.thread.isLoading && !s.threads.isLoading);
  return historyLoaded && idle;
}
