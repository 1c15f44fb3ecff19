import type { InsightsPeriod, InsightsResponse } from '@acme/contract';
import { useEffect, useState } from 'react';

export type InsightsState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; insights: InsightsResponse };

/** The maintainers' figures for the chosen period; a reader who is no maintainer gets `not-found`, like the server. */
export function useInsights(days: InsightsPeriod): InsightsState {
  const [state, setState] = useState<InsightsState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetch(`/api/insights?days=${days}`, {
      signal: controller.signal,
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    })
      .then(async (response) => {
        if (response.status === 404) return setState({ status: 'not-found' });
        if (!response.ok) {
          const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
          return setState({ status: 'failed', message: body.error?.message ?? 'The insights could not be read.' });
        }
        setState({ status: 'ready', insights: (await response.json()) as InsightsResponse });
      })
      .catch(() => {
        if (!controller.signal.aborted)
          setState({ status: 'failed', message: 'The insights could not be read; try again.' });
      });
    return () => controller.abort();
  }, [days]);
  return state;
}
