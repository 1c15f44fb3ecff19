import { useSyncExternalStore } from 'react';

/**
 * The conversations (server thread ids) whose stored messages have been loaded in this page. The runtime says a
 * thread is loading only once its history load has started, a moment after the switch to it: a question asked in
 * that moment would go to an empty thread and branch off the stored conversation instead of following it.
 */
const loaded = new Set<string>();
const listeners = new Set<() => void>();

export function markHistoryLoaded(threadId: string): void {
  loaded.add(threadId);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether the stored messages of `threadId` have been loaded; a conversation not stored yet has none to load. */
export function useHistoryLoaded(threadId: string | undefined): boolean {
  return useSyncExternalStore(
    subscribe,
    () => threadId === undefined || loaded.has(threadId),
    () => false,
  );
}
