import type { ReactNode } from 'react';
import { missingToShow } from './search-api';
import styles from './styles.module.css';
import type { SearchState } from './useDocsSearch';

const quoted = (word: string) => `“${word}”`;
const listed = (words: readonly string[]) =>
  words.length < 2
    ? quoted(words[0] ?? '')
    : `${words.slice(0, -1).map(quoted).join(', ')} or ${quoted(words.at(-1) ?? '')}`;

/**
 * Above results that leave out words of the query (after "Showing results for", before the first result, where it is
 * read before them), which ones ("No page mentions “terraform”"), as search engines say "Missing:": the React "State"
 * results for "terraform state" otherwise read as an answer about Terraform.
 */
export function MissingWords({ query, state }: { query: string; state: SearchState }): ReactNode {
  if (state.status !== 'done' || state.results.length === 0) return null;
  const words = missingToShow(query, state.missing);
  if (words.length === 0) return null;
  return (
    <p className={styles.missing} data-testid="search-missing">
      No page mentions {listed(words)}; these results match the rest.
    </p>
  );
}
