import type { ReactNode } from 'react';
import { correctedQuery } from './search-api';
import styles from './styles.module.css';
import type { SearchState } from './useDocsSearch';

/**
 * Above results found for a corrected typo, what was searched for ("Showing results for **onboarding** checklist"), as
 * search engines say it: a reader who typed "onbording" sees why the results say "onboarding".
 */
export function CorrectedQuery({ query, state }: { query: string; state: SearchState }): ReactNode {
  if (state.status !== 'done' || state.results.length === 0) return null;
  const pieces = correctedQuery(query, state.corrected);
  if (!pieces) return null;
  return (
    <p className={styles.missing} data-testid="search-corrected">
      Showing results for{' '}
      {pieces.map((piece, index) =>
        piece.corrected ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one query, in order, never reordered
          <strong key={index}>{piece.text}</strong>
        ) : (
          piece.text
        ),
      )}
    </p>
  );
}
