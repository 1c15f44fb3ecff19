import { useAui, useAuiState } from '@assistant-ui/react';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Opens the reader's newest regular conversation once the list has loaded (the assistant continues where the reader
 * left off), and again when the open conversation is archived or deleted through `reopen` (spec section 4: switch to
 * the first regular thread, or to a new one). If the server refuses that change, the conversation is back in the
 * list and the reader is taken back to it. `settled` is false until the first choice is made and open.
 */
export function useOpenLatestThread() {
  const aui = useAui();
  const leaving = useRef<string | null | undefined>(null);
  const [switched, setSwitched] = useState(false);
  const [target, setTarget] = useState<string | null>(null);
  const [settled, setSettled] = useState(false);
  const isLoading = useAuiState((s) => s.threads.isLoading);
  const onNewThread = useAuiState((s) => s.threads.mainThreadId === s.threads.newThreadId);
  const mainThreadId = useAuiState((s) => s.threads.mainThreadId);
  const regular = useAuiState((s) => s.threads.threadIds);
  useEffect(() => {
    if (leaving.current === undefined || isLoading || !onNewThread) return;
    const latest = regular.find((id) => id !== leaving.current);
    leaving.current = undefined;
    setTarget(latest ?? null);
    // Settled once the switch is done: switching loads the thread first, and a question sent before that would go
    // to the new thread the switch then leaves.
    // assistant-ui returns the switch's task (typed void).
    if (latest) void Promise.resolve(aui.threads.switchToThread(latest)).finally(() => setSwitched(true));
    else setSwitched(true);
  }, [aui, isLoading, onNewThread, regular]);
  // The switch's task can end before the conversation on screen is the one switched to: settled waits for that too,
  // and then stays settled whatever the reader opens next.
  const arrived = switched && (target === null || mainThreadId === target);
  useEffect(() => {
    if (arrived) setSettled(true);
  }, [arrived]);
  const reopen = useCallback(
    (leftThreadId: string, change: () => Promise<unknown>) => {
      leaving.current = leftThreadId;
      change().catch(() => {
        leaving.current = undefined;
        aui.threads.switchToThread(leftThreadId);
      });
    },
    [aui],
  );
  return { settled: settled || arrived, reopen };
}
