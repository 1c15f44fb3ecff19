import { useCallback, useEffect, useState } from 'react';
import { threadApi } from './runtime/thread-api';
import type { ThreadDto } from './runtime/wire-types';

export type ThreadLists = { regular: ThreadDto[]; archived: ThreadDto[] };

/** The reader's regular and archived threads, newest first, re-read after every change. */
export function useThreadList() {
  const [lists, setLists] = useState<ThreadLists>({ regular: [], archived: [] });
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(async (): Promise<ThreadLists> => {
    try {
      const [regular, archived] = await Promise.all([threadApi.list('regular'), threadApi.list('archived')]);
      const next = { regular, archived };
      setLists(next);
      setError(null);
      return next;
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Your conversations could not be loaded.');
      return lists;
    }
  }, [lists]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once on mount; refresh() re-reads after changes
  useEffect(() => {
    void refresh();
  }, []);
  return { lists, error, refresh, setError };
}
