import { useAui, useAuiState } from '@assistant-ui/react';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Opens the reader's newest regular conversation once the list has loaded (the assistant continues where the reader
 * left off), and again whenever `reopen` is called, e.g. after the open conversation was archived or deleted (spec
 * section 4: switch to the first regular thread, or to a new one). `settled` is false until the first choice is made.
 */
export function useOpenLatestThread() {
  const aui = useAui();
  const leaving = useRef<string | null | undefined>(null);
  const [settled, setSettled] = useState(false);
  const isLoading = useAuiState((s) => s.threads.isLoading);
  const onNewThread = useAuiState((s) => s.threads.mainThreadId === s.threads.newThreadId);
  const regular = useAuiState((s) => s.threads.threadIds);
  useEffect(() => {
    if (leaving.current === undefined || isLoading) return;
    const latest = regular.find((id) => id !== leaving.current);
    if (!onNewThread) return;
    leaving.current = undefined;
    if (latest) aui.threads.switchToThread(latest);
    setSettled(true);
  }, [aui, isLoading, onNewThread, regular]);
  const reopen = useCallback((leftThreadId: string) => {
    leaving.current = leftThreadId;
  }, []);
  return { settled, reopen };
}
