import { useEffect, useState } from 'react';
import { type SearchCorrection, SearchRefused, type SearchResultDto, searchDocs } from './search-api';

export type SearchState =
  | { status: 'idle' }
  | { status: 'loading'; results: SearchResultDto[] }
  | { status: 'done'; results: SearchResultDto[]; missing: string[]; corrected: SearchCorrection[] }
  /** `askable`: the query can still go to Dev Copilot (the search's own limit was reached, not the session's end). */
  | { status: 'failed'; message: string; askable: boolean };

/** The results for a query as the reader types: debounced, the previous request cancelled, the last list kept. */
export function useDocsSearch(query: string, options: { limit?: number; context?: string | undefined } = {}) {
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const { limit, context } = options;
  useEffect(() => {
    const trimmed = query.trim();
    if (!trimmed) {
      setState({ status: 'idle' });
      return;
    }
    setState((previous) => ({ status: 'loading', results: 'results' in previous ? previous.results : [] }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      // A space after the last word is kept (one is enough): it tells the search that word is finished.
      searchDocs(query.trimStart().replace(/\s+$/u, ' '), { limit, context, signal: controller.signal })
        .then(({ results, missing, corrected }) => setState({ status: 'done', results, missing, corrected }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          if (error instanceof SearchRefused) {
            setState({ status: 'failed', message: error.message, askable: error.askable });
          } else {
            setState({
              status: 'failed',
              message: 'Search is not available right now; try again in a moment.',
              askable: false,
            });
            console.warn('search failed', error);
          }
        });
    }, 80);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, limit, context]);
  return state;
}
