import { useAuiState } from '@assistant-ui/react';
import Link from '@docusaurus/Link';
import { type ReactNode, useId } from 'react';
import styles from './Sources.module.css';
import shared from './shared.module.css';

/**
 * The handbook sections an answer was built from, each a link to the exact heading. A labelled list, not a landmark:
 * every answer has its own, and a thread of them would fill the page's landmarks with same-named entries.
 */
export function Sources(): ReactNode {
  const labelId = useId();
  const content = useAuiState((s) => s.message.content);
  const sources = content.flatMap((part) => (part.type === 'source' && part.url ? [part] : []));
  if (sources.length === 0) return null;
  return (
    <div className={styles.sources} data-testid="copilot-sources">
      <span className={styles.sourcesLabel} id={labelId}>
        Sources
      </span>
      <ul aria-labelledby={labelId}>
        {sources.map((source) => (
          <li key={source.id}>
            {source.url.startsWith('/') && !source.url.startsWith('//') ? (
              <Link className={shared.link} to={source.url}>
                {source.title ?? source.url}
              </Link>
            ) : /^https?:\/\//.test(source.url) ? (
              <a className={shared.link} href={source.url} target="_blank" rel="noopener noreferrer">
                {source.title ?? source.url}
              </a>
            ) : (
              <span>{source.title ?? source.url}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
