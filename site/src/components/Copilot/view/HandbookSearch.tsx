import type { HandbookSearchResult } from '@acme/contract';
import type { ToolCallMessagePartComponent } from '@assistant-ui/react';
import Link from '@docusaurus/Link';
import styles from './HandbookSearch.module.css';
import shared from './shared.module.css';

/** Only the server's own root-relative addresses become links; anything else is shown as its title. */
const isSiteAddress = (url: string) => url.startsWith('/') && !url.startsWith('//');

/**
 * A search the model made while answering (the spec's tool-call part): what it searched for, and, folded away until
 * the reader opens it, the sections it found.
 */
export const HandbookSearch: ToolCallMessagePartComponent<{ query?: string }, HandbookSearchResult> = ({
  args,
  result,
}) => (
  <details className={styles.search} data-testid="copilot-handbook-search">
    <summary className={shared.focusRing}>Searched the handbook for “{args.query ?? ''}”</summary>
    {result?.error ? (
      <p className={styles.note}>{result.error}</p>
    ) : result?.results.length ? (
      <ul>
        {result.results.map((found) => (
          <li key={found.url}>
            {isSiteAddress(found.url) ? (
              <Link className={shared.link} to={found.url}>
                {found.title}
              </Link>
            ) : (
              <span>{found.title}</span>
            )}
          </li>
        ))}
      </ul>
    ) : (
      <p className={styles.note}>Nothing in the handbook matched.</p>
    )}
  </details>
);

/** Tools other than the handbook search are the server's business, never shown. */
export const NoOtherTool: ToolCallMessagePartComponent = () => null;
